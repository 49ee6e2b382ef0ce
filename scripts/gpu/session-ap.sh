#!/usr/bin/env bash
# One device call (1 GPU), eighth session, fourth: the x faces' (YEEX_EXP_FOLD=1) and the x and y
# faces' (=3) corrections folded into the plain kernel, after its stores, in the blocks that hold
# face nodes (the x, and y, shell boxes then go), at 32 or 40 registers (YEEX_EXP_FOLDCAP: 32,
# 16 bytes of spills); with the z boxes paired (YEEX_EXP_PAIRS). First the bits: a 160 x 120 x 72
# CPML deck, 120 steps, f32 and f64, every variant against the host engine's checksum
# (8316393ce1dfab9f, bc37d6cc1125f9ae on this machine's build). Then 512^3 against PEC, twice.
# (The YEEX_EXP_* knobs lived in the experiment build: results/2026-11-24-session8/patches/.)
#   BUILD_DIR=build/slim scripts/gpu/session-ap.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
for p in f32 f64; do
  deck_bits host yeex host $p
  deck_bits base yeex cuda $p
  deck_bits fold1 yeex cuda $p YEEX_EXP_FOLD=1
  deck_bits fold3 yeex cuda $p YEEX_EXP_FOLD=3
  deck_bits fold3cap yeex cuda $p YEEX_EXP_FOLD=3 YEEX_EXP_FOLDCAP=1
  deck_bits fold3pairs yeex cuda $p YEEX_EXP_FOLD=3 YEEX_EXP_PAIRS=1 YEEX_CPML_FORK_NODES=0
done
pack
for rep in 1 2; do
  pec "pec_$rep" 512 f32
  cpml "both_$rep" 512 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_XMB=6
  cpml "fold1_$rep" 512 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_FOLD=1
  cpml "fold3_$rep" 512 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_FOLD=3
  cpml "fold3cap_$rep" 512 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_FOLD=3 YEEX_EXP_FOLDCAP=1
  pack
done
pec pec_f64 512 f64
cpml f64_both 512 f64 YEEX_EXP_PAIRS=1 YEEX_EXP_XMB=5
cpml f64_fold1 512 f64 YEEX_EXP_PAIRS=1 YEEX_EXP_FOLD=1
cpml f64_fold3 512 f64 YEEX_EXP_PAIRS=1 YEEX_EXP_FOLD=3
cpml c256_both 256 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_XMB=6
cpml c256_fold3 256 f32 YEEX_EXP_PAIRS=1 YEEX_EXP_FOLD=3
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
