#!/usr/bin/env bash
# One device call (1 GPU), ninth session, second: the CPML shell launches on a capped grid
# (YEEX_EXP_PERSIST=T: at most T threads per SM of each shell launch, each block sweeping tiles
# blockIdx, blockIdx + gridDim, ... along one axis), so that the shells run beside the plain
# kernel's blocks for the whole half-step instead of ahead of them; the deck's bits under it;
# 512^3 f32 against PEC, twice. (YEEX_EXP_PERSIST: an experiment knob,
# results/2026-11-24-session9/patches/shell-experiments.patch.)
#   BUILD_DIR=build/slim scripts/gpu/session-ax.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
variant_bits "" YEEX_EXP_PERSIST=256 YEEX_EXP_PERSIST=64
pack
for rep in 1 2; do
  pec "pec_$rep" 512 f32
  cpml "base_$rep" 512 f32
  for t in 128 256 384 512 768 1024; do cpml "persist${t}_$rep" 512 f32 YEEX_EXP_PERSIST=$t; done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
