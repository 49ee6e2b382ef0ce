#!/usr/bin/env bash
# Seventeenth session, call 6 (one GPU): the session's final code (63378ab): final_checks
# (gpu-check.sh with every gpu test, validate on one GPU and with coop, cpml-check.sh).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
final_report
grep -h "PASSED\|FAILED" "$out/gpu-check/gpu-check.log"
