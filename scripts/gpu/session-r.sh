#!/usr/bin/env bash
# One device call (2 GPUs), fifth session, on the final build: every gpu test and
# scripts/gpu/cpml-check.sh (the CPML gpu tests again and the 512^3 PEC/CPML benchmark).
#   BUILD_DIR=build/slim scripts/gpu/session-r.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 300 "$t" --gtest_color=no --gtest_brief=1; done
OUT=$out/cpml run cpml_check 180 scripts/gpu/cpml-check.sh "$b"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
