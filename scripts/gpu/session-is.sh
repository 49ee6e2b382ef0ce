#!/usr/bin/env bash
# Twenty-seventh session, call 6 (4 x H200): the committed build (coop's 8-byte pushes):
# scripts/gpu-check.sh, then issue 3's whole table (issue3_table with TABLE_LARGE=1: weak 512^3
# a GPU, strong 512^3, 256^3, 128^3, b2r R = 3, 4, strong 640^3 and 256 x 256 x 4096, --no-peer,
# GPU pairs).
#   BUILD_DIR=build/slim scripts/gpu/session-is.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run gpu_check 240 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
TABLE_LARGE=1 issue3_table
finish
grep -E "PASS|FAIL|passed|checksum" "$out/gpu-check/gpu-check.log" | head -20
