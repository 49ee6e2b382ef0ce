#!/usr/bin/env bash
# Thirteenth session, call 18 (one GPU): two sources on one node. yeex-prev (b452096, the same source code as 5210725) injects a
# thread per source, so the two race on the node; the build chains them (link_shared_nodes). The
# gpu tests (a twin-source case in each); then inputs/dipole_box.toml with a second, identical
# dipole on the same node, 150 steps, on the host engine, and on the cuda engine with both builds
# (and coop, 1 and 4 slabs, with both): each run's probes.h5, read back on the CPU machine.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_cuda_engine test_multi_gpu
pack
twin_deck
twin_run host yeex --engine host
twin_run cuda yeex --engine cuda
twin_run cuda_prev yeex-prev --engine cuda
twin_run coop_1 yeex --engine cuda --exchange coop
twin_run coop_4slabs yeex --engine cuda --gpus 1 --subdomains 4 --exchange coop
twin_run coop_4slabs_prev yeex-prev --engine cuda --gpus 1 --subdomains 4 --exchange coop
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
ls -la "$out"/probes_*.h5
