#!/usr/bin/env bash
# Thirteenth session, call 13 (one GPU): the final build (924392d and its README). scripts/gpu-check.sh
# (every gpu test, the default deck on 1 and 4 slabs with coop and overlap, the benchmark), then
# `yeex validate` on one GPU and with coop, and cpml-check.sh's benchmark (release_checks).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
final_checks
final_report
