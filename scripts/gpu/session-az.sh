#!/usr/bin/env bash
# One device call (1 GPU), ninth session, fourth: the y and z shell boxes' block shape
# (YEEX_CPML_BLOCK; the build's 128 x 1 x 1) now that Nsight Compute shows every sweep kernel
# bound by the L2 fabric (lts__ltcfabric2ltc_cycles_active 84-96 %): blocks spanning rows or
# planes may serve the y+1 / z+1 neighbours from L1; 512^3 f32 against PEC, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-az.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do
  cpml_baseline "$rep"
  for s in 128x1x2 64x2x1 32x4x1 64x1x2 32x2x2 128x2x1 256x1x1 64x1x1; do cpml "b${s}_$rep" 512 f32 YEEX_CPML_BLOCK=$s; done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
