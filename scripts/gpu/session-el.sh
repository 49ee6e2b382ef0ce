#!/usr/bin/env bash
# Fifteenth session, call 8 (one GPU): the fused, z-streamed prototype with plane k + 1's DRAM loads
# issued before plane k's work (fused_step_prefetch in
# results/2026-11-25-session15/fused-stream/fused_stream.cu, built as build/slim/fused_stream): bits
# after 7 steps, ms per step at 256^3 and 512^3 against the two-pass reference, for each block shape
# and register budget, segments of 16, 32 and 64 planes.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
fused_stream_runs prefetch 32 16 64
