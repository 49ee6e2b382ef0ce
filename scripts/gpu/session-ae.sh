#!/usr/bin/env bash
# One device call (1 GPU), seventh session, fourth: CPML 512^3 (10 cells, every face) swept by one
# kernel per half-step (YEEX_CPML_FUSE=1, 2, 3: the plain kernel's blocks take the CPML path of the
# faces they meet, block-uniform, at 32, 40 registers or uncapped; no shell boxes, no fork), against
# the build and PEC; f32 and f64 (experiments by environment knobs of one build).
#   BUILD_DIR=build/slim scripts/gpu/session-ae.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do cpml_variants $rep fuse1 YEEX_CPML_FUSE=1 fuse2 YEEX_CPML_FUSE=2 fuse3 YEEX_CPML_FUSE=3; done
pack
pec f64_pec 512 f64
cpml f64_base 512 f64
cpml f64_cores 512 f64 YEEX_CPML_CORES=1
for fuse in 1 2 3; do cpml "f64_fuse$fuse" 512 f64 YEEX_CPML_FUSE=$fuse; done
cpml s256_base 256 f32
cpml s256_fuse1 256 f32 YEEX_CPML_FUSE=1
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
