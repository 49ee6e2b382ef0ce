#!/usr/bin/env bash
# One device call (1 GPU: an H100), eighth session, eleventh: the final build against yeex-main
# (the seventh session's build), PEC and CPML at 512^3 f32 in turn, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-av.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do
  for bin in yeex yeex-main; do
    one[0]=$b/$bin
    pec "${bin}_pec_$rep" 512 f32
    cpml "${bin}_cpml_$rep" 512 f32
  done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
