#!/usr/bin/env bash
# Twenty-first session, call 1 (4 GPUs): the graph backend's pushing sweeps (one kernel a sweep,
# its first blocks wait, take the border plane and push it; overlap_exchange.cu). test_multi_gpu's
# graph and thin-slab cases (bits), then, with this build (pushing) and yeex-split
# (YEEX_PUSHING_SWEEPS=0, the border split) in the same invocation, twice: strong 640^3 on 1 and 4
# GPUs (graph, and overlap as the session-20 reference), weak scaling on the 640 x 640 x 160 slab
# deck (1, 2, 4), strong 128^3 and 256^3 on 1, 2, 4 (400 steps x 9).
#   BUILD_DIR=build/slim scripts/gpu/session-gh.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
pushing_start
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,2,4 --exchanges graph)
for rep in 1 2; do
  run "strong640_push_$rep" 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges graph,overlap
  run "strong640_split_$rep" 150 "$b/yeex-split" "${bench[@]:1}" --scaling strong --size 640 --counts 1,4 --exchanges graph
  run "weak160_push_$rep" 150 "${bench[@]}" "${weak[@]}"
  run "weak160_split_$rep" 150 "$b/yeex-split" "${bench[@]:1}" "${weak[@]}"
  pack
  for size in 128 256; do
    run "strong${size}_push_$rep" 100 "$b/yeex" "${long[@]}" --size $size
    run "strong${size}_split_$rep" 100 "$b/yeex-split" "${long[@]}" --size $size
  done
  pack
done
pushing_report
grep -h "choices\|pushing\|border split" "$out"/strong640_push_1.txt | head -3
