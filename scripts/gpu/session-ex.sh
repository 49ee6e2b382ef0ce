#!/usr/bin/env bash
# Sixteenth session, call 10 (one GPU): coop's launches within a call meet the team first (the fix
# for calls 4-9's deadlock at the second form trial). MultiGpu.CoopFormsAndTrialsKeepTheBits
# REPS times (before the fix it failed in 4-7 % of runs), then the three gpu test binaries whole.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for i in $(seq "${REPS:-150}"); do
  run "trials_$i" 60 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_filter=MultiGpu.CoopFormsAndTrialsKeepTheBits
done
pack
echo "trials: $(grep -c '^trials_[0-9]* exit 0' "$out/summary.txt") passed of $(grep -c '^trials_' "$out/summary.txt")"
gpu_test_pair test_multi_gpu test_cuda_engine test_topology_gpu
pack
grep -v "exit 0" "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/test_*.txt
