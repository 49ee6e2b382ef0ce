#!/usr/bin/env bash
# Twenty-fifth session, call 7 (all GPUs): the session's last build. Every gpu test; bench --verify
# of every backend, weak 512^3 a GPU on 1 and all GPUs (the components now hashed at once: the
# rows' time against call 6's), and the same without --verify.
#   BUILD_DIR=build/slim scripts/gpu/session-hx.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
tested_start
all_gpus yeex
run weak_verify 240 "${x[@]}" --exchanges "$all" --scaling weak --size 512 --verify --markdown "$out/weak.md" --json "$out/weak.json"
run weak_plain 240 "${x[@]}" --exchanges "$all" --scaling weak --size 512
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
cat "$out/weak.md"
grep -hE "  (first|same|DIFFERS)$" "$out/weak_verify.txt" | awk '{print $1, $2, $4, $5, $NF}'
cat "$out/summary.txt"
