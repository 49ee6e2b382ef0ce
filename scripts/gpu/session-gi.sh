#!/usr/bin/env bash
# Twenty-first session, call 2 (4 GPUs): why call 1's pushing sweeps lose at 640^3 (88 % against
# the split's 98 %). This build fences once a block (thread 0 after the barrier) instead of once a
# thread; YEEX_PUSH_EXPERIMENT=1 puts the fence of every thread back, =3 drops the wait, =4 the
# stores into the neighbour (3 and 4 give wrong fields: times only). test_multi_gpu's graph and
# thin-slab cases (bits), then weak scaling on the 640 x 640 x 160 slab deck (1, 2, 4) under each
# and under the split (yeex-split); strong 640^3 and 128^3 pushing and split.
#   BUILD_DIR=build/slim scripts/gpu/session-gi.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
pushing_start
for x in 0 1 3 4; do env_bin "yeex-x$x" YEEX_PUSH_EXPERIMENT=$x; done
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,4 --exchanges graph --size 128)
for bin in yeex-x0 yeex-x1 yeex-x3 yeex-x4 yeex-split; do run "weak160_$bin" 150 "$b/$bin" "${bench[@]:1}" "${weak[@]}"; done
pack
for bin in yeex-x0 yeex-split; do
  run "strong640_$bin" 150 "$b/$bin" "${bench[@]:1}" --scaling strong --size 640 --counts 1,4 --exchanges graph
  run "strong128_$bin" 100 "$b/$bin" "${long[@]}"
done
pushing_report
