#!/usr/bin/env bash
# Twenty-second session, call 3 (4 GPUs): issue 3's table on the committed code (b2r on graph's
# transport, graph's pushing sweeps up to 192^2-node planes): issue3_table in lib.sh with the
# 268 M-cell rows (TABLE_LARGE=1: strong 640^3 and 256 x 256 x 4096 on 1 and 4 GPUs). (As run, the
# steps stood here; they moved into lib.sh after the call, unchanged.)
#   BUILD_DIR=build/slim scripts/gpu/session-gr.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
TABLE_LARGE=1 issue3_table
cat "$out/summary.txt"
grep -H "strong \|weak " "$out"/*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $7, $12, $13}'
