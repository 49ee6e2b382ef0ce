#!/usr/bin/env bash
# One device call (1 GPU), ninth session, eleventh: single-axis cores again (yeex-exp,
# patches/cpml-cores.patch): YEEX_CPML_CORES=1 cuts the z and y boxes at the plain box's x and y
# bounds into cores that test one axis (z: Axes 4, y: Axes 2; 40 registers in float) on the shell
# stream and strips on a second shell stream (YEEX_CPML_CORES_ONE_STREAM=1: all on one); the cuda
# engine's gpu tests and the deck's bits under it; 512^3 f32 against PEC, twice; f64 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bg.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
exp_start cores YEEX_CPML_CORES=1
for rep in 1 2; do
  cpml_variants "$rep" cores YEEX_CPML_CORES=1 cores1 "YEEX_CPML_CORES=1 YEEX_CPML_CORES_ONE_STREAM=1"
done
size_variant 64 512 f64 cores YEEX_CPML_CORES=1
size_variant 256 256 f32 cores YEEX_CPML_CORES=1
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
