#!/usr/bin/env bash
# Thirteenth session, call 24 (one GPU): coop's inject_sources not inlined (yeex-ni: the final build
# with coop-inject-noinline.patch; no kernel spills) against the final build (yeex): coop at 128^3
# (400 x 9), 256^3, 512^3 f32, 512^3 f64 and 512^3 CPML, in turn, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
coop_rate_runs 2 "yeex yeex-ni" "128 --steps 400 --repeats 9" 256 512 "512 --precision f64" "512 --cpml 10"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
coop_rates
