#!/usr/bin/env bash
# Thirtieth session, call 3 (2 x H200), a scratch build (not committed): what graph's pair pushing
# sweep pays at 640^3 on 2 GPUs, by parts removed (YEEX_PUSH_X: 1 no stores into the neighbour, 2 no
# fence before the arrival, 4 no wait; the fields are then wrong, only the times count), twice;
# then pairs against one node a thread in the pushing sweep (YEEX_PAIR_PUSH_OFF=1) where graph
# pushes by default (128^3, 160^3, 192^3) and forced at 256^3 and 384^3, with the split beside.
#   BUILD_DIR=build/slim scripts/gpu/session-jk.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
strong=("${bench[@]}" --scaling strong --counts 1,2 --exchanges graph)
for rep in 1 2; do
  run "split_640_$rep" 150 "${strong[@]}" --size 640
  for x in 0 1 2 4 7; do
    run "push_640_X${x}_$rep" 150 env YEEX_PUSHING_SWEEPS=1 YEEX_PUSH_X=$x "${strong[@]}" --size 640
  done
  pack
done
for size in 128 160 192 256 384; do
  force=()
  ((size > 192)) && force=(YEEX_PUSHING_SWEEPS=1)
  run "pairs_$size" 150 env "${force[@]}" "${strong[@]}" --size $size
  run "nodes_$size" 150 env "${force[@]}" YEEX_PAIR_PUSH_OFF=1 "${strong[@]}" --size $size
  run "split_$size" 150 env YEEX_PUSHING_SWEEPS=0 "${strong[@]}" --size $size
done
finish
