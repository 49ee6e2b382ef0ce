#!/usr/bin/env bash
# Twenty-fifth session, call 5 (all GPUs): scripts/gpu-check.sh on the session's code (every gpu
# test, the default deck's checksum on 4 slabs of one GPU, the benchmark with its markdown, and
# bench --verify of every backend at 128^3).
#   BUILD_DIR=build/slim scripts/gpu/session-hv.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run gpu_check 560 scripts/gpu-check.sh "$b" "$out/gpu-check"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|tests: |checksum|DIFFERS" "$out/gpu_check.txt" | head -40
grep -E "  (first|same|DIFFERS)$" "$out/gpu_check.txt" | awk '{print $1, $2, $4, $5, $NF}'
cat "$out/gpu-check/bench_f32.md"
cat "$out/summary.txt"
