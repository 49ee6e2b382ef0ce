#!/usr/bin/env bash
# One device call (1 GPU), ninth session, fourteenth: the build with single-axis cores (forked
# shells cut their z and y boxes into cores of one axis and strips, the strips in few launches of
# yee_strip_kernel) against yeex-head (main before the session's changes): candidate-check.sh
# (gpu-check.sh, bits, PEC/CPML twice, f64 and 256^3, coop, validate, cpml-check.sh); then the
# build with YEEX_CPML_CORES=0 against it, 512^3 f32 twice, and 128^3 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bj.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
"$(dirname "$0")/candidate-check.sh" "${1:?usage: $0 OUT_DIR}" yeex-head --sizes
cp "$1/summary.txt" "$1/summary-candidate.txt"  # lib.sh starts a new summary
source scripts/gpu/lib.sh "$1"
for rep in 1 2; do cpml "nocores_$rep" 512 f32 YEEX_CPML_CORES=0; cpml "cores_$rep" 512 f32; done
pec pec128 128 f32
cpml cpml128 128 f32
cpml nocores128 128 f32 YEEX_CPML_CORES=0
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
