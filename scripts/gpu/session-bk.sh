#!/usr/bin/env bash
# One device call (1 GPU), ninth session, sixteenth: where the strips of a split with cores go in
# the shell stream (yeex-exp, patches/strip-order.patch): before the cores (YEEX_EXP_STRIPS_FIRST),
# after the x boxes (YEEX_EXP_STRIPS_LAST), or between (the build); 512^3 f32 against PEC, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-bk.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one[0]=$b/yeex-exp
for rep in 1 2; do cpml_variants "$rep" first YEEX_EXP_STRIPS_FIRST=1 last YEEX_EXP_STRIPS_LAST=1; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
