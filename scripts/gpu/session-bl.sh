#!/usr/bin/env bash
# One device call (1 GPU: an H100), ninth session, seventeenth: the build with cores against
# yeex-head (main before the session), PEC and CPML 512^3 f32 in turn, twice, and with the cores
# off (YEEX_CPML_CORES=0).
#   BUILD_DIR=build/slim scripts/gpu/session-bl.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do versus $rep yeex-head; cpml "nocores_$rep" 512 f32 YEEX_CPML_CORES=0; pack; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
