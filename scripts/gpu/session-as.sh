#!/usr/bin/env bash
# One device call (1 GPU), eighth session, seventh: the pairs of shell boxes side by side in the
# grid, so that blocks dispatched together touch memory close together: the x boxes along x
# (YEEX_EXP_ALONGX: the x_max end of a row lies just before the x_min start of the next), the y
# boxes along y (YEEX_EXP_ALONGY: the y_max rows of a plane just before the y_min rows of the
# next); the x boxes in blocks of 32 x 2 (YEEX_EXP_XTHREADS=64); bits of the CPML deck; 512^3 f32
# against PEC, twice; f64 once.
# (YEEX_EXP_ALONGX, _ALONGY, _XTHREADS: an experiment build of this session, not kept; the
# committed build does what ALONGX=1 ALONGY=1 XTHREADS=64 did.)
#   BUILD_DIR=build/slim scripts/gpu/session-as.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
all3="YEEX_EXP_ALONGX=1 YEEX_EXP_ALONGY=1 YEEX_EXP_XTHREADS=64"
variant_bits "" "$all3"
for rep in 1 2; do
  cpml_variants $rep x YEEX_EXP_ALONGX=1 x64 "YEEX_EXP_ALONGX=1 YEEX_EXP_XTHREADS=64" \
    xy "YEEX_EXP_ALONGX=1 YEEX_EXP_ALONGY=1" xy64 "$all3"
done
pec pec_f64 512 f64
cpml base_f64 512 f64
cpml xy64_f64 512 f64 $all3
cpml base_256 256 f32
cpml xy64_256 256 f32 $all3
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
