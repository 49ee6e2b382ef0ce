#!/usr/bin/env bash
# One device call (1 GPU), ninth session, ninth: the final build (phase_table's host loop
# rearranged after call 10): every gpu test, the CPML deck's bits against yeex-head, PEC and CPML
# 512^3 f32 against yeex-head, cpml-check.sh's benchmark.
#   BUILD_DIR=build/slim scripts/gpu/session-be.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
gpu_tests; pack
cpml_deck
bits_versus yeex-head
versus 1 yeex-head; pack
OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
