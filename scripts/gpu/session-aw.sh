#!/usr/bin/env bash
# One device call (1 GPU), ninth session, first: two nodes per thread in the CPML shell kernels
# (YEEX_EXP_SHELL="xN,xMB,yN,yMB,zN,zMB": nodes per thread and MinBlocks per box pair; every load
# of both nodes before any store: CpmlNode), and the x boxes 16 nodes wide with the plain box's
# grid starting on the line before it (YEEX_CPML_ALIGN=16; the plain kernel's lead); the deck's
# bits under each, against yeex-main's; 512^3 f32 against PEC, twice; the gpu tests.
# (YEEX_EXP_SHELL: an experiment knob, results/2026-11-24-session9/patches/shell-experiments.patch.)
#   BUILD_DIR=build/slim scripts/gpu/session-aw.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
for p in f32 f64; do deck_bits "[main]" yeex-main cuda $p; done
variant_bits "" YEEX_EXP_SHELL=2,3,2,3,2,3 YEEX_EXP_SHELL=2,4,2,2,2,2 YEEX_CPML_ALIGN=16
pack
for rep in 1 2; do
  pec "pec_$rep" 512 f32
  cpml "base_$rep" 512 f32
  cpml "x2mb3_$rep" 512 f32 YEEX_EXP_SHELL=2,3,1,0,1,0
  cpml "x2mb4_$rep" 512 f32 YEEX_EXP_SHELL=2,4,1,0,1,0
  cpml "y2mb3_$rep" 512 f32 YEEX_EXP_SHELL=1,0,2,3,1,0
  cpml "y2mb2_$rep" 512 f32 YEEX_EXP_SHELL=1,0,2,2,1,0
  cpml "z2mb3_$rep" 512 f32 YEEX_EXP_SHELL=1,0,1,0,2,3
  cpml "z2mb2_$rep" 512 f32 YEEX_EXP_SHELL=1,0,1,0,2,2
  cpml "align16_$rep" 512 f32 YEEX_CPML_ALIGN=16
  cpml "align16_x2_$rep" 512 f32 YEEX_CPML_ALIGN=16 YEEX_EXP_SHELL=2,4,1,0,1,0
  cpml "all2_$rep" 512 f32 YEEX_EXP_SHELL=2,4,2,3,2,3
  pack
done
gpu_tests
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
