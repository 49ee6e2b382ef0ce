#!/usr/bin/env bash
# Fifteenth session, call 15 (one GPU): the review's tidy (src/runtime/clock.hpp: one seconds_since
# for the solver, the exchanges, bench and validate; coop's trials time with it): the gpu tests, and
# 128 x 128 x 64 under coop on one slab (its summary reports the timed kernel form).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine test_topology_gpu
quarter_deck 64 z64
run z64_coop 60 "$b/yeex" run "$out/z64.toml" --engine cuda --gpus 1 --exchange coop --output "$out/o"
rm -rf "$out/o"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
grep -h "exchange  coop\|stepping" "$out/z64_coop.txt"
