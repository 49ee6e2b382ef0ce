#!/usr/bin/env bash
# Twenty-fifth session, call 11 (all GPUs): the session's last build (8a9d8c3): every gpu test, and
# bench --verify of every backend at 128^3, strong and weak on 1 and all GPUs (coop's 1024 blocks).
#   BUILD_DIR=build/slim scripts/gpu/session-ib.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
tested_start
all_gpus yeex
run verify128 120 "${x[@]}" --exchanges "$all" --scaling both --size 128 --verify --markdown "$out/verify128.md"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
grep -hE "  (first|same|DIFFERS)$" "$out/verify128.txt" | awk '{print $1, $2, $4, $5, $NF}'
cat "$out/verify128.md" "$out/summary.txt"
