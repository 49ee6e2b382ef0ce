#!/usr/bin/env bash
# Fourteenth session, call 3 (one H200): call 2 (session-du.sh) on an H200: the gpu tests, and coop
# on one GPU with inject_sources inlined (yeex-c0) against called (yeex-c1), f32, f64 and CPML,
# twice; then the build's own choice (yeex) at 128^3, 256^3, 512^3 in f32 and f64, once; and one
# GPU's share of 128^3 over 4 (quarter_deck: 128 x 128 x 32) under coop, each form, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
pack
form_rates
coop_rate_runs 1 yeex "128 --steps 400 --repeats 9" 256 512 "128 --precision f64 --steps 400 --repeats 9" \
  "256 --precision f64" "512 --precision f64 --steps 40 --repeats 5"
quarter_deck
quarter_runs 2 yeex-c0 yeex-c1 yeex
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
coop_rates
grep -H "Gcells" "$out"/quarter_*.txt | sed "s|$out/||"
