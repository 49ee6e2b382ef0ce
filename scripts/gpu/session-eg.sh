#!/usr/bin/env bash
# Fifteenth session, call 3 (one GPU): coop with fused sweeps (YEEX_COOP_FUSE=B, one subdomain
# only: round r updates H on band r of B planes and E on band r - 1, then grid.sync(); each plane's
# H and E are read from DRAM about once a step instead of twice). The coop gpu tests under B = 1
# and 4 (their one-slab runs go fused: the bits), then coop on one GPU at 128^3, 256^3, 512^3 (f32),
# 512^3 f64 and 512^3 with 10-cell CPML, unfused (f0) and B = 1, 2, 4, 8, 16; and tiles of 64 x 16
# and 128 x 8 nodes (yeex-x64, yeex-x128: the same source with kTileX 64, 128, built aside) instead
# of 32 x 32.
# Its knobs live only in results/2026-11-25-session15/fused-rounds.patch (applied to the
# src/exchange/coop_exchange.cu of d782d2b, built as build/slim): measured, not kept.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for f in 1 4; do coop_tests "f$f" YEEX_COOP_FUSE=$f; done
pack
for f in 0 1 2 4 8 16; do env_bin "yeex-f$f" YEEX_COOP_FUSE=$f; done
coop_rate_runs 1 "yeex-f0 yeex-f1 yeex-f2 yeex-f4 yeex-f8 yeex-f16" "128 --steps 400 --repeats 9" 256 512 \
  "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
coop_rate_runs 1 "yeex-x64 yeex-x128" "128 --steps 400 --repeats 9" 256 512 "512 --precision f64 --steps 40 --repeats 5"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/coop_tests_f*.txt
coop_rates
