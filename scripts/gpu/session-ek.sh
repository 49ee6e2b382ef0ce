#!/usr/bin/env bash
# Fifteenth session, call 7 (one GPU): the fused, z-streamed Yee step prototype
# (results/2026-11-25-session15/fused-stream/fused_stream.cu, built as build/slim/fused_stream:
# double-buffered fields, blocks independent, halo H recomputed) against its two-pass reference:
# bits after 7 steps on 97 x 83 x 71, then ms per step at 256^3 and 512^3 for each block shape and
# register budget, segments of 64 planes; then segments of 32 and 128 for two shapes; and
# yeex bench's engine (T1) at 256^3 and 512^3 for comparison.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
run fused_seg64 400 "$b/fused_stream" 7 20 64 fused
pack
for seg in 32 128; do
  for c in "fused 32x8 min4" "fused 32x16 min2"; do run "fused_seg${seg}_${c// /_}" 100 "$b/fused_stream" 7 20 $seg "$c"; done
done
run engine 120 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --exchanges overlap --size 256 512 --steps 60 --warmup 10 --repeats 5
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
cat "$out"/fused_seg*.txt
grep "^strong" "$out/engine.txt"
