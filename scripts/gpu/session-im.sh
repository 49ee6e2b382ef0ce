#!/usr/bin/env bash
# Twenty-sixth session, call 10 (4 x H200): coop's band span in bytes of an array (64 planes of
# 512^2 floats; call 9 counted nodes, and 99-plane bands ran double 0.6-1.2 % slower than 64). The
# coop gpu tests; one GPU at 512^3: f32 PEC (99 planes), f64 PEC (58) and CPML (29), each f64
# case against YEEX_COOP_BAND=64.
#   BUILD_DIR=build/slim scripts/gpu/session-im.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
coop_tests
run one_512 60 "$b/yeex" "${coop_one_512[@]}"
for band in "" 64; do one_512_cases "$band" cpml64 pec64; done
finish
