#!/usr/bin/env bash
# Thirteenth session, calls 17 and 20 (one GPU): the final build (5210725, then fd6e132): final_checks (gpu-check.sh,
# validate on one GPU and with coop, cpml-check.sh's benchmark).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
grep -E "PASS|FAIL|passed|checksum|^strong" "$out/gpu-check/gpu-check.log" | head -40
grep -hE "problem\(s\)" "$out"/validate*.txt "$out"/validate/*.log 2>/dev/null | head
grep -E "PASS|FAIL|%" "$out/cpml/cpml-check.log" | tail -3
