#!/usr/bin/env bash
# For the next 4 x H200 call (none was lent in session 30): scripts/gpu-check.sh on the build with
# the pair pushing sweeps (checked_start), then issue 3's core rows (issue3_core: weak 512^3 a GPU,
# strong 512^3, 256^3, 128^3 on 1, 2, 4 GPUs, b2r at R = 3 and 4).
#   BUILD_DIR=build/slim scripts/gpu/session-jo.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
checked_start
issue3_core
finish
