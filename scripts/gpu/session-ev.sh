#!/usr/bin/env bash
# Sixteenth session, call 5 (one GPU): call 4's gpu tests failed once in
# MultiGpu.CoopFormsAndTrialsKeepTheBits (subdomain 0 waited 10 s for subdomain 1's E plane at step
# 3, several slabs on one GPU, 3-step form trials). How often, and is it CUDA's lazy module loading
# (a first launch of a kernel form that waits for the device while the other slab's kernel spins)?
# The test REPS times as built (lazy loading, CUDA 13's default), then REPS times with
# CUDA_MODULE_LOADING=EAGER; the full output of each, so a failure names its configuration.
# FILTER (call 6: the whole binary, as call 4 ran it) and MODES change what runs.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
reps=${REPS:-15}
filter=${FILTER:-MultiGpu.CoopFormsAndTrialsKeepTheBits}
for mode in ${MODES:-LAZY EAGER}; do
  for i in $(seq "$reps"); do
    run "${mode}_$i" 120 env CUDA_MODULE_LOADING=$mode "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_filter=$filter
  done
  pack
done
grep -c "exit 0" "$out/summary.txt"
grep -v "exit 0" "$out/summary.txt"
grep -h -B2 "waited more than" "$out"/*_*.txt | head -20
