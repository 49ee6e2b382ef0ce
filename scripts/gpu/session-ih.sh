#!/usr/bin/env bash
# Twenty-sixth session, call 5 (4 x H200): call 4's yeex-sd (publication after the first band)
# made the called form of coop's kernel slower on one GPU (2.68 against 2.50 ms a step at 512^3),
# a change of ptxas's schedule, not of the work. Variants of its code: sd2 without the fence before
# the band's grid.sync(); sd4 with the border loop in two loops (with or without the per-tile
# publication); sd24 both; sdn with sweep() not inlined. Each on one GPU at 512^3 (both forms'
# trial times logged) and weak 512^3 on 1 and 4 GPUs; yeex-base and yeex-s (call 4) again.
#   BUILD_DIR=build/slim scripts/gpu/session-ih.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
for bin in yeex-base yeex-s yeex-sd2 yeex-sd4 yeex-sd24 yeex-sdn; do
  run "weak_$bin" 90 env YEEX_COOP_TUNE_LOG=1 "$b/$bin" "${coop_weak4[@]}"
  pack
done
finish
