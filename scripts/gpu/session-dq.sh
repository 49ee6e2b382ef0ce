#!/usr/bin/env bash
# Thirteenth session, call 25 (one GPU): coop's double PEC kernel with inject_sources as a call
# (the build, yeex) against the final build before it (yeex-prev, 75f3e8e): the gpu tests, the CPML
# deck's bits under coop on 1 and 4 slabs, coop at 512^3 f64, f64 with CPML, f32 and 128^3 f32,
# in turn, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
tests_and_coop_bits
coop_rate_runs 2 "yeex yeex-prev" "512 --precision f64" "512 --precision f64 --cpml 10" 512 "128 --steps 400 --repeats 9"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt; cat "$out/bits.txt"
coop_rates
