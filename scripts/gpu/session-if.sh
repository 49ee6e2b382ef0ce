#!/usr/bin/env bash
# Twenty-sixth session, call 3 (4 x H200): a long sweep's sent plane published after its first
# band (no per-tile fence, barrier or count). yeex-a: with a system-scope fence by the blocks that
# swept border tiles before that band's grid.sync(); yeex-b: without it; yeex-base: the committed
# code. The coop gpu tests (yeex-a's code); coop on one GPU at 512^3 (each form's trial time
# logged), each build twice in turn; weak 512^3 a GPU on 1 and 4 GPUs, each build.
#   BUILD_DIR=build/slim scripts/gpu/session-if.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
coop_tests
forms_one_512 2 yeex-base yeex-a yeex-b
for bin in yeex-base yeex-a yeex-b; do run "weak_$bin" 90 env YEEX_COOP_TUNE_LOG=1 "$b/$bin" "${coop_weak4[@]}"; done
finish
