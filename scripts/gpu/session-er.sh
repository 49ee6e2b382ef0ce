#!/usr/bin/env bash
# Fifteenth session, call 14 (one H200): the fused-step prototype with row flags
# in shared memory instead of the block barrier (the "flags" cases of
# results/2026-11-25-session15/fused-stream/fused_stream.cu: a warp's E waits only for the warp
# below it), against the barrier form in the same invocation, segments of 16, 32 and 64: bits and
# ms per step at 256^3 and 512^3.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for c in "flags 32x32 min1" "flags 32x16 min2" "flags 32x8 min4" "prefetch 32x32 min1" "fused 32x16 min2"; do
  for seg in 16 32 64; do run "$(echo "$c" | tr ' ' '_')_seg$seg" 120 "$b/fused_stream" 7 20 $seg "$c"; done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "nodes differ" "$out"/*_seg*.txt | awk '{print $(NF-2), "nodes differ"}' | sort | uniq -c
grep -h "\^3" "$out"/*_seg*.txt | sort -t'(' -k2 -r
