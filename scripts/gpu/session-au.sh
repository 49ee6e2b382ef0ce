#!/usr/bin/env bash
# One device call (1 GPU), eighth session, tenth (ran on an H100: no H200 could be had): L2 prefetches in the CPML shell kernels (an
# experiment build: every thread prefetches its six field values YEEX_EXP_PFZ rows ahead in the z
# boxes, YEEX_EXP_PFY / YEEX_EXP_PFX planes ahead in the y / x boxes, so that more bytes are in
# flight than the registers hold); bits of the CPML deck; 512^3 f32 against PEC, twice.
# (The YEEX_EXP_PF* knobs: results/2026-11-24-session8/patches/cpml-l2-prefetch.patch, not kept.)
#   BUILD_DIR=build/slim scripts/gpu/session-au.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
variant_bits "YEEX_EXP_PFZ=512 YEEX_EXP_PFY=16 YEEX_EXP_PFX=8"
for rep in 1 2; do
  cpml_variants $rep z256 YEEX_EXP_PFZ=256 z512 YEEX_EXP_PFZ=512 y8 YEEX_EXP_PFY=8 y16 YEEX_EXP_PFY=16 \
    x4 YEEX_EXP_PFX=4 x8 YEEX_EXP_PFX=8 all "YEEX_EXP_PFZ=512 YEEX_EXP_PFY=16 YEEX_EXP_PFX=8"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
