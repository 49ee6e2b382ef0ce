#!/usr/bin/env bash
# One device call (1 GPU), tenth session: plain blocks spanning two planes (YEEX_CUDA_BLOCK, PEC
# and CPML alike: 64x1x2, 32x2x2, 64x2x2) and shell blocks 64x1x2 (YEEX_CPML_BLOCK), against the
# build (64x2x1 both), 512^3 f32, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-cc.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for rep in 1 2; do
  cpml_baseline "$rep"
  for v in 64x1x2 32x2x2 64x2x2; do
    run "pec${v}_$rep" 60 env YEEX_CUDA_BLOCK=$v "${one[@]}" --exchanges overlap --size 512 --precision f32
    cpml "cpml${v}_$rep" 512 f32 YEEX_CUDA_BLOCK=$v
  done
  cpml "shell64x1x2_$rep" 512 f32 YEEX_CPML_BLOCK=64x1x2
  pack
done
