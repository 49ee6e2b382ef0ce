#!/usr/bin/env bash
# One device call (1 GPU), tenth session: with the plain kernel's 64 x 2 blocks (the build), other
# plain blocks (YEEX_CUDA_BLOCK, PEC and CPML alike: 64x1x1, 32x2x1, 64x4x1, 128x2x1) and other
# shell blocks (YEEX_CPML_BLOCK 128x1x1, 32x2x1), 512^3 f32, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-bz.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for rep in 1 2; do
  cpml_baseline "$rep"
  for v in 64x1x1 32x2x1 64x4x1 128x2x1; do
    run "pec${v}_$rep" 60 env YEEX_CUDA_BLOCK=$v "${one[@]}" --exchanges overlap --size 512 --precision f32
    cpml "cpml${v}_$rep" 512 f32 YEEX_CUDA_BLOCK=$v
  done
  for v in 128x1x1 32x2x1; do cpml "shell${v}_$rep" 512 f32 YEEX_CPML_BLOCK=$v; done
  pack
done
