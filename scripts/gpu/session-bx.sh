#!/usr/bin/env bash
# One device call (1 GPU), tenth session: the plain kernel's block (YEEX_CUDA_BLOCK, PEC and CPML
# alike) 64x2x1 and 128x1x1 against the build's 32x4x1, 512^3 f32, three times.
#   BUILD_DIR=build/slim scripts/gpu/session-bx.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for rep in 1 2 3; do
  cpml_baseline "$rep"
  for v in 64x2x1 128x1x1; do
    run "pec${v}_$rep" 60 env YEEX_CUDA_BLOCK=$v "${one[@]}" --exchanges overlap --size 512 --precision f32
    cpml "cpml${v}_$rep" 512 f32 YEEX_CUDA_BLOCK=$v
  done
  pack
done
