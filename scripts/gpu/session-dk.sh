#!/usr/bin/env bash
# Thirteenth session, call 16 (one GPU): coop without bands on short sweeps (fewer than 160 tiles
# per block; the build, yeex) against bands everywhere (yeex-prev, b452096): the gpu tests, the CPML
# deck's bits under coop on 1 and 4 slabs, coop at 128^3 (400 x 9), 256^3, 320^3, 384^3, 512^3
# f32, 512^3 f64 and 512^3 CPML with both builds in turn, and validate with coop.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
tests_and_coop_bits
coop_rate_runs 1 "yeex yeex-prev" "128 --steps 400 --repeats 9" 256 320 384 512 "512 --precision f64" "512 --cpml 10"
run validate_coop 200 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --json "$out/validate_coop.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt; cat "$out/bits.txt"
coop_rates
grep "problem(s)" "$out/validate_coop.txt"
