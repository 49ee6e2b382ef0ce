#!/usr/bin/env bash
# Twenty-first session, call 5 (4 GPUs): the pushing sweep kernel spreads its pushed plane's blocks
# over the first 16 plane slots (yee_pushing_sweep_kernel), so that the pushing blocks, whose
# fence holds them while their stores cross the link, sit among blocks that keep the memory busy.
# test_multi_gpu's graph and thin-slab cases (bits); then this build (spread 16), yeex-s1
# (YEEX_PUSH_SPREAD=1: the plane's blocks all first, calls 1-4) and yeex-split (YEEX_PUSHING_SWEEPS=0):
# weak scaling on the 640 x 640 x 160 slab deck (1, 2, 4), strong 640^3 (1, 4), strong 256^3 and
# 128^3 (1, 4; 400 steps x 9).
#   BUILD_DIR=build/slim scripts/gpu/session-gl.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
pushing_start
env_bin yeex-s1 YEEX_PUSH_SPREAD=1
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,4 --exchanges graph)
for bin in yeex yeex-s1 yeex-split; do
  run "weak160_$bin" 150 "$b/$bin" "${bench[@]:1}" "${weak[@]}"
  run "strong640_$bin" 150 "$b/$bin" "${bench[@]:1}" --scaling strong --size 640 --counts 1,4 --exchanges graph
  for size in 256 128; do run "strong${size}_$bin" 100 "$b/$bin" "${long[@]}" --size $size; done
  pack
done
pushing_report
