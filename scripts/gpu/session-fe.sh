#!/usr/bin/env bash
# Eighteenth session, call 1 (4 GPUs, the first multi-GPU machine since the sixth session): issue
# 3's table on the current code. The machine and its links; every gpu test binary on 4 GPUs; then
# the efficiency table (issue3_table in lib.sh: weak 512^3 per GPU on 1, 2, 4 GPUs; strong 512^3,
# 256^3 and 128^3; b2r R = 3, 4 at 128^3; peer access off; GPU pairs 0,1 and 0,3 at 256^3).
# OUT_DIR.tar.gz is refreshed after every step. (As run in session 18 the steps stood here; they
# moved into lib.sh in session 22, unchanged.)
#   BUILD_DIR=build/slim scripts/gpu/session-fe.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 200 "$t" --gtest_color=no --gtest_brief=1; done; pack
issue3_table
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/tests_*.txt
