#!/usr/bin/env bash
# Fifteenth session, call 2 (one GPU): coop with soft bands (YEEX_COOP_SOFT_BANDS=1: at a band's
# end a block counts itself and waits only until every block has finished the band before, where
# the default waits in a grid.sync() for every block to finish this one). The coop gpu tests under
# soft bands of 2 planes (the tests' grids are too small for bands otherwise); coop on one GPU at
# 128^3, 256^3, 512^3 (f32), 512^3 f64 and 512^3 with 10-cell CPML with the default (s0), soft
# bands of the default length (s1), of 32 planes (s1b32) and 16 (s1b16), twice; the 4-GPU shares
# 128 x 128 x 32 and x 64 as decks with s0, s1b16 and s1b8.
# Its knobs live only in results/2026-11-25-session15/soft-bands.patch (applied to the
# src/exchange/coop_exchange.cu of d782d2b, built as build/slim): measured, not kept.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
coop_tests soft YEEX_COOP_SOFT_BANDS=1 YEEX_COOP_BAND=2
pack
env_bin yeex-s0 YEEX_COOP_SOFT_BANDS=0
env_bin yeex-s1 YEEX_COOP_SOFT_BANDS=1
for band in 32 16 8; do env_bin "yeex-s1b$band" YEEX_COOP_SOFT_BANDS=1 YEEX_COOP_BAND=$band; done
coop_rate_runs 2 "yeex-s0 yeex-s1 yeex-s1b32 yeex-s1b16" "128 --steps 400 --repeats 9" 256 512 \
  "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
pack
for nz in 32 64; do quarter_deck $nz "z$nz"; DECK=z$nz quarter_runs 1 yeex-s0 yeex-s1b16 yeex-s1b8; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/coop_tests_soft.txt
coop_rates
grep -H "stepping" "$out"/z*_yeex*.txt | sed "s|$out/||"
