#!/usr/bin/env bash
# Thirteenth session, call 11 (one GPU): the final build. scripts/gpu-check.sh (every gpu test, the
# default deck now at 2.4 GHz on 1 and on 4 slabs with coop and overlap, the benchmark), then
# `yeex validate` on one GPU and with coop, and cpml-check.sh's benchmark (release_checks).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
grep -E "PASS|FAIL|passed|checksum|warning" "$out/gpu-check/gpu-check.log" | head -30
grep -E "PASS|FAIL|failed" "$out"/validate*.txt "$out"/cpml_check.txt 2>/dev/null | head -20
