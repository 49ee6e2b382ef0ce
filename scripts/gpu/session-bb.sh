#!/usr/bin/env bash
# One device call (1 GPU), ninth session, sixth: (1) coop on one GPU with the class coefficients
# loaded by value again (yeex-cand, the candidate build) against yeex-prev; (2) the y and z shell
# boxes' threads marching P nodes along their pair axis (YEEX_EXP_MARCH=P; an experiment knob,
# results/2026-11-24-session9/patches/shell-march.patch), so that the y+1 / z+1 neighbour a node reads is the next node's own value, loaded by
# the same thread (an L1 hit instead of an L2 read: the sweep kernels are bound by the L2 fabric);
# the deck's bits under it; 512^3 f32 against PEC, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-bb.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for bin in yeex-cand yeex-prev; do
  run "${bin}_coop512" 60 "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512 --steps 100 --repeats 5
  run "${bin}_coop512_f64" 60 "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512 --steps 50 --repeats 5 --precision f64
done
pack
cpml_deck
deck_bits "[cand]" yeex-cand cuda f32
variant_bits "" YEEX_EXP_MARCH=5 YEEX_EXP_MARCH=10 YEEX_EXP_MARCH=3
pack
for rep in 1 2; do
  cpml_baseline "$rep"
  for p in 2 5 10; do cpml "march${p}_$rep" 512 f32 YEEX_EXP_MARCH=$p; done
  cpml "march10y_$rep" 512 f32 YEEX_EXP_MARCH=10 YEEX_EXP_MARCH_Y_ONLY=1
  cpml "march5y_$rep" 512 f32 YEEX_EXP_MARCH=5 YEEX_EXP_MARCH_Y_ONLY=1
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
