#!/usr/bin/env bash
# Twenty-eighth session, call 8 (one H200), after the review: the event timing shared by the
# placement trial and the copy-bandwidth measurement (timed_runs_ms), the arena's pointers derived
# from it and its unit (point_into). test_cuda_engine (the field arena's bits, the copy
# bandwidth), then the engine with the trial logged on the tall quarter and 512^3.
#   BUILD_DIR=build/slim scripts/gpu/session-jb.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
placement_start
run test_cuda_engine 200 "$b/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_brief=1
env_case trial YEEX_FIELD_SLOT_LOG=1 tallq box512
finish
