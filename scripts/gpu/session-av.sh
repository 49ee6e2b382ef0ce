#!/usr/bin/env bash
# One device call (1 GPU: an H100), eighth session, eleventh: meant as the final build against
# yeex-main (the seventh session's build), PEC and CPML at 512^3 f32 in turn, twice; build/slim
# still held call 10's experiment binary (results/2026-11-24-session8/README.md).
#   BUILD_DIR=build/slim scripts/gpu/session-av.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do versus $rep; pack; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
