#!/usr/bin/env bash
# One device call (1 GPU), seventh session, second: CPML 512^3 (10 cells, every face) with variants
# of the shell stream, all by environment knobs of one build (experiments, not on main): the z and y
# boxes cut into single-axis cores and strips (YEEX_CPML_CORES), dynamic shared memory per shell
# block so that few shell blocks fit an SM beside the plain kernel's (YEEX_CPML_SHELL_SMEM bytes),
# the plain kernel launched before the shells (YEEX_CPML_PLAIN_FIRST), the shells in reverse order
# (YEEX_CPML_SHELLS_REVERSED), other shell block shapes (YEEX_CPML_BLOCK); the build and PEC twice.
#   BUILD_DIR=build/slim scripts/gpu/session-ac.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_baseline 1
cpml cores_1 512 f32 YEEX_CPML_CORES=1
cpml reversed 512 f32 YEEX_CPML_SHELLS_REVERSED=1
cpml plain_first 512 f32 YEEX_CPML_PLAIN_FIRST=1
cpml both 512 f32 YEEX_CPML_PLAIN_FIRST=1 YEEX_CPML_SHELLS_REVERSED=1
cpml cores_reversed 512 f32 YEEX_CPML_CORES=1 YEEX_CPML_SHELLS_REVERSED=1
cpml cores_plain_first 512 f32 YEEX_CPML_CORES=1 YEEX_CPML_PLAIN_FIRST=1
pack
for smem in 40000 77000 115000; do cpml "smem$smem" 512 f32 YEEX_CPML_SHELL_SMEM=$smem; done
cpml block256 512 f32 YEEX_CPML_BLOCK=256x1x1
cpml block64 512 f32 YEEX_CPML_BLOCK=64x1x1
cpml cores_block256 512 f32 YEEX_CPML_CORES=1 YEEX_CPML_BLOCK=256x1x1
cpml_baseline 2
cpml cores_2 512 f32 YEEX_CPML_CORES=1
cpml f64_base 512 f64
cpml f64_cores 512 f64 YEEX_CPML_CORES=1
pec f64_pec 512 f64
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
