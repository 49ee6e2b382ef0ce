#!/usr/bin/env bash
# For the next 4 x H200 call (session 30 ran the core rows, session-jr.sh): the 268 M-cell rows (TABLE_LARGE=1 issue3_rest:
# strong 640^3 and 256 x 256 x 4096, peer access off, GPU pairs), then graph's pushing sweeps (pairs)
# against its border split on 4 GPUs where session 30 found them even on 2 GPUs: strong 224^3,
# 256^3 and 320^3, YEEX_PUSHING_SWEEPS=1 against 0, twice (the limit, kPushingPlaneNodes, is 192^2).
#   BUILD_DIR=build/slim scripts/gpu/session-jp.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
TABLE_LARGE=1 issue3_rest
for rep in 1 2; do
  for size in 224 256 320; do
    for mode in 0 1; do
      run "limit_${size}_push${mode}_$rep" 90 env YEEX_PUSHING_SWEEPS=$mode "${bench[@]}" --scaling strong --size $size \
        --counts 1,4 --exchanges graph
    done
  done
  pack
done
finish
