#!/usr/bin/env bash
# Thirteenth session, call 8 (one GPU): the fused step with 2 and 4 rows of cells per thread in a
# tile (yeex-c2, yeex-c4: the patch's YEEX_EXP_CELLS; tiles 32 x 64 and 32 x 128 of 1024 threads),
# so that a tile's barrier, count and job lookup serve more cells: coop at 512^3 and 256^3 f32 with
# full synchronisation (default skew, skew 1 and 2) and with none (YEEX_COOP_EXP=15), against yeex-prev.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --steps 100 --repeats 5)
for size in 512 256; do
  run "prev_$size" 60 "$b/yeex-prev" "${args[@]}" --size $size
  for bin in yeex-c2 yeex-c4; do
    run "${bin}_$size" 60 "$b/$bin" "${args[@]}" --size $size
    for skew in 1 2; do run "${bin}_${size}_skew$skew" 60 env YEEX_COOP_SKEW=$skew "$b/$bin" "${args[@]}" --size $size; done
    run "${bin}_${size}_nosync" 60 env YEEX_COOP_EXP=15 "$b/$bin" "${args[@]}" --size $size
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
grep -H "coop " "$out"/*.txt | sed "s|$out/||" | awk '{print $1, $7, $8}'
