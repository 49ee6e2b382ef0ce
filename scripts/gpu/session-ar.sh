#!/usr/bin/env bash
# One device call (1 GPU), eighth session, sixth: the x boxes' pair launched side by side in x
# (YEEX_EXP_ALONGX: x_min and x_max blocks of the same rows next to each other in the grid, so
# that the row ends they touch lie close in memory) and the x boxes' block height
# (YEEX_EXP_XTHREADS: 64 -> 32 x 2, 256 -> 32 x 8; 128 -> 32 x 4 is the build's); bits of the
# CPML deck under ALONGX; 512^3 f32 against PEC, twice.
# (YEEX_EXP_ALONGX, _ALONGY, _XTHREADS: an experiment build of this session, not kept; the
# committed build does what ALONGX=1 ALONGY=1 XTHREADS=64 did.)
#   BUILD_DIR=build/slim scripts/gpu/session-ar.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
variant_bits "" YEEX_EXP_ALONGX=1
for rep in 1 2; do
  cpml_variants $rep alongx YEEX_EXP_ALONGX=1 xt64 YEEX_EXP_XTHREADS=64 xt256 YEEX_EXP_XTHREADS=256 \
    alongx_xt256 "YEEX_EXP_ALONGX=1 YEEX_EXP_XTHREADS=256"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
