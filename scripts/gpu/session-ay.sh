#!/usr/bin/env bash
# One device call (1 GPU), ninth session, third: the class coefficients of a phase in 16-byte
# loads (CellCoefficients padded, phase_coefficients: 16 loads per plain node instead of 22) in
# `yeex`, against `yeex-prev` (calls 1-3's experiment build, knobs off); PEC and CPML at 512^3 f32 in
# turn, twice, f64 and 256^3 once; the deck's bits; the gpu tests.
#   BUILD_DIR=build/slim scripts/gpu/session-ay.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
bits_versus yeex-prev
pack
for rep in 1 2; do versus $rep yeex-prev; pack; done
versus_sizes yeex-prev
pack
gpu_tests
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
