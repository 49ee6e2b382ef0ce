#!/usr/bin/env bash
# One device call (1 GPU), tenth session: with 64 x 2 plain and shell blocks, the narrow shell
# boxes' (x boxes, strips: 32 nodes wide) threads per block (YEEX_EXP_NARROW 32 / 128 / 256; the
# build 64) and the x boxes at 32 registers (YEEX_EXP_XMIN=8; the build 40), 512^3 f32, twice.
# Code: results/2026-11-24-session10/patches/shell-experiments.patch.
#   BUILD_DIR=build/slim scripts/gpu/session-cd.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for rep in 1 2; do
  cpml_variants "$rep" n32 YEEX_EXP_NARROW=32 n128 YEEX_EXP_NARROW=128 n256 YEEX_EXP_NARROW=256 xmin8 YEEX_EXP_XMIN=8
done
