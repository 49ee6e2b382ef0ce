#!/usr/bin/env bash
# One device call (1 GPU), ninth session, twelfth: single-axis cores, strips in few launches (yeex-exp,
# patches/cpml-cores.patch): YEEX_CPML_CORES=1 cuts the z and y boxes at the plain box's x and y
# bounds into cores that test one axis (z: Axes 4, y: Axes 2; 40 registers in float) and strips,
# the strips of one block shape in one launch of yee_strip_kernel (a 1-D grid over up to 8 boxes),
# all on the shell stream; the cuda engine's gpu tests and the deck's bits under it; 512^3 f32
# against PEC, twice; f64, 256^3 and 128^3 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bh.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
exp_start cores YEEX_CPML_CORES=1
for rep in 1 2; do cpml_variants "$rep" cores YEEX_CPML_CORES=1; done
for size in 64:512:f64 256:256:f32 128:128:f32; do
  IFS=: read -r suffix edge precision <<< "$size"
  size_variant "$suffix" "$edge" "$precision" cores YEEX_CPML_CORES=1
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
