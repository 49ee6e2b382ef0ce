#!/usr/bin/env bash
# Twelfth session, call 1 (one GPU): z-slabs sharing a GPU (--subdomains N over fewer GPUs).
# BUILD_DIR (build/slim): yeex and tests/gpu/* of the change; yeex-1024 and tests/gpu/*_1024 the
# same with coop in 1024-thread blocks (results/2026-11-24-session10/patches/coop-1024.patch).
#   1. every gpu test of the change: test_multi_gpu now runs 1..4 slabs on the one GPU;
#   2. coop-1024's cuda engine and multi-slab tests;
#   3. the CLI: the default deck on 1 and 4 slabs with every backend (checksums must agree), nccl
#      and bench refusing shared GPUs with exit 2.
# session-cm.sh times the bench box on 1 and 4 slabs.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_multi_gpu test_cuda_engine test_topology_gpu; do
  run "$t" 420 "$b/tests/gpu/$t" --gtest_color=no --gtest_output="xml:$out/$t.xml"
  pack
done
for t in test_multi_gpu_1024 test_cuda_engine_1024; do
  run "$t" 420 "$b/tests/gpu/$t" --gtest_color=no --gtest_output="xml:$out/$t.xml"
  pack
done
for bin in yeex yeex-1024; do
  run "cli_${bin}_1slab" 60 "$b/$bin" run --gpus 1 --exchange host-staged --output "$out/o" -q --json
  for x in host-staged p2p overlap coop; do
    run "cli_${bin}_4slab_$x" 60 "$b/$bin" run --gpus 1 --subdomains 4 --exchange "$x" --output "$out/o" --json
  done
  run "cli_${bin}_3slab_b2r" 60 "$b/$bin" run --subdomains 3 --exchange b2r --halo-depth 2 --output "$out/o" --json
done
grep -h '"checksum"' "$out"/cli_*.txt | sort | uniq -c > "$out/cli_checksums.txt"
run refuse_nccl 60 "$b/yeex" run --subdomains 2 --exchange nccl --output "$out/o"
run refuse_bench 60 "$b/yeex" bench --subdomains 2 --size 64
run refuse_fewer_slabs 60 "$b/yeex" run --devices 0 --subdomains 0 --output "$out/o"
run exchanges_4slab 60 "$b/yeex" exchanges --subdomains 4
rm -rf "$out/o"
pack
