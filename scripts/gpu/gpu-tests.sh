#!/usr/bin/env bash
# Every gpu-labelled test binary of BUILD_DIR (default build/cuda), run directly (the carried build's
# CTest files name this machine's paths), with JUnit XML under $OUT when it is set.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/cuda}
export NCCL_NVLS_ENABLE=0
status=0
for t in "$build"/tests/gpu/test_*; do
  [[ -x $t && $t != *.cmake ]] || continue
  echo "## $t"
  xml=()
  [[ -n ${OUT:-} ]] && xml=(--gtest_output="xml:$OUT/$(basename "$t").xml")
  "$t" --gtest_color=no --gtest_brief=1 "${xml[@]}" || status=1
done
exit $status
