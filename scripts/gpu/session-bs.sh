#!/usr/bin/env bash
# One device call (1 GPU), tenth session, sixth: the strips by axes (YEEX_EXP_STRIPS=1: axes 7, 5
# and 3 each in its kernel, 54 / 47 / 48 registers; 3 launches) or all in one list of 32 x 2
# blocks (=2: 1 launch); and, with the cores, other shell block shapes (YEEX_CPML_BLOCK 64x2x1,
# 32x4x1, 256x1x1; the build 128x1x1). Bits (forced fork), gpu tests, 512^3 f32 three times.
#   BUILD_DIR=build/slim scripts/gpu/session-bs.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f YEEX_EXP_STRIPS=1" "$f YEEX_EXP_STRIPS=2"
fork_tests "strips" YEEX_EXP_STRIPS 1 2
for rep in 1 2 3; do
  cpml_variants "$rep" strips1 YEEX_EXP_STRIPS=1 strips2 YEEX_EXP_STRIPS=2 b64x2 YEEX_CPML_BLOCK=64x2x1 \
    b32x4 YEEX_CPML_BLOCK=32x4x1 b256 YEEX_CPML_BLOCK=256x1x1
done
