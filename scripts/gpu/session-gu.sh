#!/usr/bin/env bash
# Twenty-second session, call 6 (all GPUs; no 4-GPU kind was lent then, so 2): graph's late pushes on planes above 192^2 nodes (each
# sweep one kernel whose last blocks wait for the received plane, the plane it sends pushed by a
# kernel on the border lane once the sweep is done; border_first_exchange.hpp). The gpu tests of
# the engine and of several GPUs; then graph with late pushes (the default there) against the
# border split (yeex-split: YEEX_PUSHING_SWEEPS=0), in turn: strong 640^3 (overlap beside), weak
# 512^3 a GPU, strong 256^3, strong 256 x 256 x 4096.
#   BUILD_DIR=build/slim scripts/gpu/session-gu.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run test_cuda_engine 60 "$b/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_brief=1
run test_multi_gpu 120 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1
pack
env_bin yeex-split YEEX_PUSHING_SWEEPS=0
tall_deck
n=$(nvidia-smi -L | wc -l)
short=(bench --engine cuda --steps 50 --warmup 10 --repeats 5)
for rep in 1 2; do
  run "strong640_late_$rep" 60 "$b/yeex" "${short[@]}" --scaling strong --size 640 --counts 1,$n --exchanges graph,overlap
  run "strong640_split_$rep" 60 "$b/yeex-split" "${short[@]}" --scaling strong --size 640 --counts 1,$n --exchanges graph
  pack
done
for bin in yeex yeex-split; do
  run "weak512_$bin" 60 "$b/$bin" "${short[@]}" --scaling weak --size 512 --counts 1,$n --exchanges graph
  run "strong256_$bin" 60 "$b/$bin" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 256 --counts 1,$n --exchanges graph
  run "strongtall_$bin" 60 "$b/$bin" "${short[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,$n --exchanges graph
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED\|Failure" "$out"/test_*.txt | head
grep -H " 1 \| $n " "$out"/weak*.txt "$out"/strong*.txt | grep -v "#" | sed "s|$out/||" | cut -c1-140
