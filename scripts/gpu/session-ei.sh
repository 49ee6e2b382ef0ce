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
run coop_tests_fused 300 env YEEX_COOP_FUSE=1 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='MultiGpu.Coop*:MultiGpu.Bench*'
run coop_tests_fused_lag1 300 env YEEX_COOP_FUSE=1 YEEX_COOP_FUSE_LAG=1 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='MultiGpu.Coop*'
pack
env_bin yeex-u YEEX_COOP_FUSE=0
env_bin yeex-fd YEEX_COOP_FUSE=1
for l in 1 2 4 8; do env_bin "yeex-fl$l" YEEX_COOP_FUSE=1 YEEX_COOP_FUSE_LAG=$l; done
coop_rate_runs 1 "yeex-u yeex-fd" "128 --steps 400 --repeats 9" 256 512 \
  "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
coop_rate_runs 1 "yeex-fl1 yeex-fl2 yeex-fl4 yeex-fl8" 512 "128 --steps 400 --repeats 9"
pack
sed -e 's/^steps = 100 /steps = 4 /' inputs/bench_box.toml > "$out/box4.toml"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct
CUDA_VISIBLE_DEVICES=0 YEEX_COOP_CALL_SOURCES=1 YEEX_COOP_FUSE=1 run ncu_fused 200 "$NCU" --clock-control none --kernel-name regex:coop_kernel --launch-count 100 --metrics $m --csv \
  "$b/yeex" run "$out/box4.toml" --engine cuda --gpus 1 --exchange coop --output "$out/o_ncu"
rm -rf "$out/o_ncu"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt
coop_rates
grep -h "dram__bytes\|gpu__time" "$out/ncu_fused.txt" | awk -F'","' '{print $(NF-2), $(NF-1), $NF}'
