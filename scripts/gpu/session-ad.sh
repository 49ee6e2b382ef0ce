#!/usr/bin/env bash
# One device call (1 GPU), seventh session, third: CPML 512^3 (10 cells, every face) with the x
# boxes folded into the plain kernel (YEEX_CPML_XFUSE=1: the blocks of the plain box's whole rows
# that meet an x face take update_cell_with_cpml, warp-uniform; =2 the same without a register
# cap), against the build; PEC; f32, f64, 256^3; with the single-axis cores in f64 (experiments by
# environment knobs of one build).
#   BUILD_DIR=build/slim scripts/gpu/session-ad.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do cpml_variants $rep xfuse1 YEEX_CPML_XFUSE=1 xfuse2 YEEX_CPML_XFUSE=2; done
pec f64_pec 512 f64
cpml f64_base 512 f64
cpml f64_xfuse1 512 f64 YEEX_CPML_XFUSE=1
cpml f64_xfuse2 512 f64 YEEX_CPML_XFUSE=2
cpml f64_xfuse1_cores 512 f64 YEEX_CPML_XFUSE=1 YEEX_CPML_CORES=1
cpml f64_cores 512 f64 YEEX_CPML_CORES=1
cpml s256_base 256 f32
cpml s256_xfuse1 256 f32 YEEX_CPML_XFUSE=1
cpml xfuse1_cores 512 f32 YEEX_CPML_XFUSE=1 YEEX_CPML_CORES=1
cpml xfuse1_block64 512 f32 YEEX_CPML_XFUSE=1 YEEX_CPML_BLOCK=64x1x1
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
