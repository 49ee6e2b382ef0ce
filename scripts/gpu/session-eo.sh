#!/usr/bin/env bash
# Fifteenth session, call 11 (one GPU): the fused, z-streamed prototype in its final form
# (results/2026-11-25-session15/fused-stream/fused_stream.cu, one kernel template for the three
# kinds that calls 7-9 measured as separate kernels; built as build/slim/fused_stream): every case
# (fused: loads at each plane's start; prefetch: the next plane's loads first; rows: R nodes a
# thread) with segments of 16, 32 and 64 planes, bits and ms per step; then session-en.sh's Nsight
# Compute metrics into OUT_DIR/ncu.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for filter in fused prefetch rows; do fused_stream_runs "$filter" 16 32 64 > "$out/report_$filter.txt"; done
scripts/gpu/session-en.sh "$out/ncu" > "$out/ncu_report.txt" 2>&1
pack
grep -h "nodes differ" "$out"/*_seg*.txt | awk '{print $(NF-2), "nodes differ"}' | sort | uniq -c
grep -h "512^3" "$out"/*_seg*.txt | sort -t'(' -k2 -r | head -12
tail -30 "$out/ncu_report.txt"
