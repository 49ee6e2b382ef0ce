#!/usr/bin/env bash
# Twenty-sixth session, call 2 (4 x H200): call 1's build (yeex, the YEEX_COOP_PUBLISH knob) ran
# coop on one GPU at 49.8 Gcells/s where the committed build had run 53.5: both builds (yeex-base:
# the committed code) on one GPU at 512^3, twice in turn, each form's trial time logged
# (YEEX_COOP_TUNE_LOG=1); then yeex-base's weak 512^3 on 1 and 4 GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-ie.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
forms_one_512 2 yeex-base yeex
run weak_base 90 "$b/yeex-base" "${coop_weak4[@]}"
finish
