#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: the candidate check of whole rows in the plain kernel
# (yeex) against main before it (yeex-head): candidate-check.sh with --sizes --coop-cpml, then CPML
# at 128^3 with both builds, and cpml-check.sh's benchmark twice more.
#   BUILD_DIR=build/slim scripts/gpu/session-ci.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
run candidate 420 scripts/gpu/candidate-check.sh "$out/candidate" yeex-head --sizes --coop-cpml
pair yeex 128_1 128 f32
pair yeex-head 128_1 128 f32
for rep in 1 2; do
  OUT=$out/cpml$rep YEEX_CPML_SKIP_TESTS=1 run "cpml_check_$rep" 120 scripts/gpu/cpml-check.sh "$b"
done
pack
