#!/usr/bin/env bash
# Thirteenth session, calls 17 and 20 (one GPU): the final build (5210725, then fd6e132): final_checks (gpu-check.sh,
# validate on one GPU and with coop, cpml-check.sh's benchmark).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
final_report
