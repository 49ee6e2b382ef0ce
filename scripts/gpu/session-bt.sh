#!/usr/bin/env bash
# One device call (1 GPU), tenth session, seventh: with the cores, shell blocks of 64x2x1 against
# the build's 128x1x1 (and 64x4x1, 128x2x1, 32x2x1), 512^3 f32 four times; f64 and 256^3 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bt.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for rep in 1 2 3 4; do
  cpml_variants "$rep" b64x2 YEEX_CPML_BLOCK=64x2x1 b64x4 YEEX_CPML_BLOCK=64x4x1 b128x2 YEEX_CPML_BLOCK=128x2x1 \
    b32x2 YEEX_CPML_BLOCK=32x2x1
done
size_variant 64 512 f64 b64x2 YEEX_CPML_BLOCK=64x2x1
size_variant 256 256 f32 b64x2 YEEX_CPML_BLOCK=64x2x1
pack
