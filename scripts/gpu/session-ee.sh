#!/usr/bin/env bash
# Fifteenth session, call 1 (one GPU): coop with drawn tiles (YEEX_COOP_GRAB=G: the blocks draw G
# tiles at a time from a counter, in the sweep's order, no bands) against the fixed stride with
# bands (G=0, the build's default). The coop gpu tests under G=1 and G=4 (the bits), then coop on
# one GPU at 128^3, 256^3, 512^3 (f32), 512^3 f64 and 512^3 with 10-cell CPML, for G = 0, 1, 2, 4,
# twice; and the 4-GPU shares 128 x 128 x 32 and x 64 as decks, G = 0 and 1.
# Its knobs live only in results/2026-11-25-session15/drawn-tiles.patch (applied to the
# src/exchange/coop_exchange.cu of d782d2b, built as build/slim): measured, not kept.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for g in 1 4; do coop_tests "g$g" YEEX_COOP_GRAB=$g; done
pack
for g in 0 1 2 4; do env_bin "yeex-g$g" YEEX_COOP_GRAB=$g; done
coop_rate_runs 2 "yeex-g0 yeex-g1 yeex-g2 yeex-g4" "128 --steps 400 --repeats 9" 256 512 \
  "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
pack
for nz in 32 64; do quarter_deck $nz "z$nz"; DECK=z$nz quarter_runs 1 yeex-g0 yeex-g1; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/coop_tests_g*.txt
coop_rates
grep -H "stepping" "$out"/z*_yeex*.txt | sed "s|$out/||"
