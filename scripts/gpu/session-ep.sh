#!/usr/bin/env bash
# Fifteenth session, call 12 (one H100): the fused, z-streamed prototype's leading forms on an H100
# (smaller L2, less bandwidth than the H200): 32 x 32 and 32 x 16 threads, with and without the next
# plane prefetched, segments of 16 and 32; yeex bench's engine at 256^3 and 512^3 for comparison.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for c in "fused 32x32 min1" "prefetch 32x32 min1" "fused 32x16 min2" "prefetch 32x16 min2"; do
  for seg in 16 32; do run "$(echo "$c" | tr ' ' '_')_seg$seg" 120 "$b/fused_stream" 7 20 $seg "$c"; done
done
run engine 120 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --exchanges overlap --size 256 512 --steps 60 --warmup 10 --repeats 5
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "nodes differ" "$out"/*_seg*.txt | awk '{print $(NF-2), "nodes differ"}' | sort | uniq -c
grep -h "\^3" "$out"/*_seg*.txt
grep "^strong" "$out/engine.txt"
