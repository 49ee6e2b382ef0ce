#!/usr/bin/env bash
# One device call (1 GPU), tenth session: cpml-check.sh's benchmark (issue 5's target) on the
# build, four times in a row (its tests skipped: call 14 ran every gpu test on this build).
#   BUILD_DIR=build/slim scripts/gpu/session-cb.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for rep in 1 2 3 4; do
  OUT=$out/cpml$rep YEEX_CPML_SKIP_TESTS=1 run "cpml_check_$rep" 120 scripts/gpu/cpml-check.sh "$b"
  pack
done
