#!/usr/bin/env bash
# Twenty-ninth session, call 5 (2 x H200; 4 if lent): test_gpu_cli again with yeex-p2p in the
# carried build (call 4 had left it out, so its one yeex-p2p case could not run); on 4 GPUs, then
# the core of issue 3's table (issue3_core: weak 512^3 a GPU, strong 512^3, 256^3, 128^3, b2r at
# R = 3 and 4).
#   BUILD_DIR=build/slim scripts/gpu/session-jg.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_test_pair test_gpu_cli
pack
(($(nvidia-smi -L | wc -l) == 4)) && issue3_core
finish
