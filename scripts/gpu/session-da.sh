#!/usr/bin/env bash
# Thirteenth session, call 5 (one GPU): the fused step with blocks of 256 and 512 threads
# (yeex-exp256, yeex-exp512: 8 and 4 blocks per SM, tiles 32 x 8 and 32 x 16) against 1024
# (yeex-exp) and yeex-prev, at 512^3 and 256^3 f32: full synchronisation (YEEX_COOP_EXP=0) with the
# default skew and skew 1, and none (15, timing only).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --steps 100 --repeats 5)
for size in 512 256; do
  run "prev_$size" 60 "$b/yeex-prev" "${args[@]}" --size $size
  for bin in yeex-exp yeex-exp512 yeex-exp256; do
    run "${bin}_$size" 60 "$b/$bin" "${args[@]}" --size $size
    run "${bin}_${size}_skew1" 60 env YEEX_COOP_SKEW=1 "$b/$bin" "${args[@]}" --size $size
    run "${bin}_${size}_nosync" 60 env YEEX_COOP_EXP=15 "$b/$bin" "${args[@]}" --size $size
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
grep -H "coop " "$out"/*.txt | sed "s|$out/||" | awk '{print $1, $7, $8}'
