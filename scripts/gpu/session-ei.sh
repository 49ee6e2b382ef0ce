#!/usr/bin/env bash
# Fifteenth session, call 5 (one GPU): coop with fused, pipelined sweeps (YEEX_COOP_FUSE=1, one
# subdomain: one pass updates H on plane q and E on plane q - lag; E on a plane waits for H on the
# planes up to it through per-plane counters, no grid.sync()). The coop gpu tests under it (lag by
# default, and 1: the tightest dependencies), then coop on one GPU at 128^3, 256^3, 512^3 (f32),
# 512^3 f64 and 512^3 with 10-cell CPML, unfused (u) and fused (fd), and at 512^3 with lags 1, 2,
# 4, 8 (fl1 ...); Nsight Compute's DRAM bytes for fused at 512^3 (the deck of 4 steps).
# Its knobs live only in results/2026-11-25-session15/fused-pipelined.patch (applied to the
# src/exchange/coop_exchange.cu of d782d2b, built as build/slim): measured, not kept.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
fuse_start fused 1 yeex-fl 1 2 4 8
env_bin yeex-fd YEEX_COOP_FUSE=1
coop_rate_runs 1 "yeex-u yeex-fd" "128 --steps 400 --repeats 9" 256 512 \
  "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
coop_rate_runs 1 "yeex-fl1 yeex-fl2 yeex-fl4 yeex-fl8" 512 "128 --steps 400 --repeats 9"
fuse_finish ncu_fused
