#!/usr/bin/env bash
# One device call (1 GPU: an H100), ninth session, eighth: the committed build against yeex-head
# (main before it), PEC and CPML 512^3 f32 in turn, twice, f64 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bd.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do versus $rep yeex-head; pack; done
for bin in yeex yeex-head; do pair "$bin" 64_1 512 f64; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
