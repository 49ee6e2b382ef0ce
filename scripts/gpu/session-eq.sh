#!/usr/bin/env bash
# Fifteenth session, call 13 (one H200): the fused-step prototype with the planes
# staged in shared memory by asynchronous copies, two planes ahead (fused_step_async, the "async"
# case of results/2026-11-25-session15/fused-stream/fused_stream.cu), against its best earlier forms
# in the same invocation, segments of 16, 32 and 64: bits and ms per step at 256^3 and 512^3.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for c in "async 32x32" "prefetch 32x32 min1" "fused 32x16 min2"; do
  for seg in 16 32 64; do run "$(echo "$c" | tr ' ' '_')_seg$seg" 120 "$b/fused_stream" 7 20 $seg "$c"; done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "nodes differ" "$out"/*_seg*.txt | awk '{print $(NF-2), "nodes differ"}' | sort | uniq -c
grep -h "\^3" "$out"/*_seg*.txt
