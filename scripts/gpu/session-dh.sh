#!/usr/bin/env bash
# Thirteenth session, call 13 (one GPU): the final build (924392d and its README). scripts/gpu-check.sh
# (every gpu test, the default deck on 1 and 4 slabs with coop and overlap, the benchmark), then
# `yeex validate` on one GPU and with coop, and cpml-check.sh's benchmark (release_checks).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
grep -E "PASS|FAIL|passed|checksum|warning|^strong" "$out/gpu-check/gpu-check.log" | head -40
grep -hE "problem\(s\)" "$out"/validate*.txt "$out"/validate/*.log 2>/dev/null | head
grep -E "PASS|FAIL|%" "$out/cpml/cpml-check.log" | tail -3
