#!/usr/bin/env bash
# One device call (1 GPU), eighth session, third: register caps of the leaner CPML shell kernels
# (__launch_bounds__ min blocks: x boxes YEEX_EXP_XMB, y YEEX_EXP_YMB, z YEEX_EXP_ZMB; float: 8 ->
# 32 registers, 6 -> 40, 5 -> 48, 4 -> 64; those tried have no spills), two shell boxes per
# launch (YEEX_EXP_PAIRS), 512^3 f32 against PEC, twice; f64 with the x boxes at 48 registers.
# (The YEEX_EXP_* knobs lived in the experiment build: results/2026-11-24-session8/patches/.)
#   BUILD_DIR=build/slim scripts/gpu/session-ao.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do
  pec "pec_$rep" 512 f32
  for xyz in 644 844 664 645 865 864 665; do
    cpml "m${xyz}_$rep" 512 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_XMB=${xyz:0:1} YEEX_EXP_YMB=${xyz:1:1} YEEX_EXP_ZMB=${xyz:2:1}
  done
  pack
done
pec pec_f64 512 f64
cpml f64_x6 512 f64 YEEX_EXP_PAIRS=1 YEEX_EXP_XMB=6
cpml f64_x5 512 f64 YEEX_EXP_PAIRS=1 YEEX_EXP_XMB=5
pec pec_3 512 f32
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
