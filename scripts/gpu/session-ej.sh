#!/usr/bin/env bash
# Fifteenth session, call 6 (one GPU): coop with fused sweeps by columns (YEEX_COOP_FUSE=1, one
# subdomain: each block walks its column of tiles up in one pass, H on plane q then E on plane q -
# lag, waiting only on the 3 x 3 neighbourhood of columns, through per-column progress counters).
# The coop gpu tests under lag 1 (the default) and 0; coop on one GPU unfused (u) and fused at
# 512^3 f32 with lags 0, 1, 2, 4, f64 and CPML 512^3, 256^3 (only 64 columns); Nsight Compute's
# DRAM bytes for fused at 512^3 (lag 1).
# Its knobs live only in results/2026-11-25-session15/fused-columns.patch (applied to the
# src/exchange/coop_exchange.cu of d782d2b, built as build/slim): measured, not kept.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
fuse_start cols 0 yeex-cl 0 1 2 4
coop_rate_runs 1 "yeex-u yeex-cl0 yeex-cl1 yeex-cl2 yeex-cl4" 512
coop_rate_runs 1 "yeex-u yeex-cl1" 256 "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
fuse_finish ncu_cols
