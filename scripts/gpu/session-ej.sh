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
run coop_tests_cols 300 env YEEX_COOP_FUSE=1 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='MultiGpu.Coop*:MultiGpu.Bench*'
run coop_tests_cols_lag0 300 env YEEX_COOP_FUSE=1 YEEX_COOP_FUSE_LAG=0 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='MultiGpu.Coop*'
pack
env_bin yeex-u YEEX_COOP_FUSE=0
for l in 0 1 2 4; do env_bin "yeex-cl$l" YEEX_COOP_FUSE=1 YEEX_COOP_FUSE_LAG=$l; done
coop_rate_runs 1 "yeex-u yeex-cl0 yeex-cl1 yeex-cl2 yeex-cl4" 512
coop_rate_runs 1 "yeex-u yeex-cl1" 256 "512 --precision f64 --steps 40 --repeats 5" "512 --cpml 10 --steps 50 --repeats 5"
pack
sed -e 's/^steps = 100 /steps = 4 /' inputs/bench_box.toml > "$out/box4.toml"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct
CUDA_VISIBLE_DEVICES=0 YEEX_COOP_CALL_SOURCES=1 YEEX_COOP_FUSE=1 run ncu_cols 200 "$NCU" --clock-control none --kernel-name regex:coop_kernel --launch-count 100 --metrics $m --csv \
  "$b/yeex" run "$out/box4.toml" --engine cuda --gpus 1 --exchange coop --output "$out/o_ncu"
rm -rf "$out/o_ncu"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt
coop_rates
grep -h "dram__bytes\|gpu__time" "$out/ncu_cols.txt" | awk -F'","' '{print $(NF-2), $(NF-1), $NF}'
