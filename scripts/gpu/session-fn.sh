#!/usr/bin/env bash
# Eighteenth session, call 10 (4 GPUs): the review's change to the flags transport (no pushed_
# events made for graph): test_multi_gpu and test_gpu_cli on 4 GPUs, and graph at 128^3 strong.
#   BUILD_DIR=build/slim scripts/gpu/session-fn.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_gpu_cli
run strong_128 60 "$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges overlap,graph
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
cat "$out/summary.txt"; grep -h "PASSED\|FAILED" "$out"/test_*.txt; grep -v "^#" "$out/strong_128.txt"
