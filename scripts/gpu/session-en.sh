#!/usr/bin/env bash
# Fifteenth session, call 10 (one GPU): Nsight Compute on the fused, z-streamed prototype's best
# form (fused_step with Prefetch, 32 x 32 threads, segments of 32 planes) and on its two-pass reference
# (h_sweep, e_sweep), at 512^3: DRAM bytes, time, occupancy, and the share of warps stalled at the
# barrier or on memory. Launches 32 and 33 of each kernel are the first timed ones at 512^3 (7 for
# the bits, 22 at 256^3, 2 of warm-up before).
set -uo pipefail
source scripts/gpu/lib.sh "$1"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct
export CUDA_VISIBLE_DEVICES=0
for k in fused_step h_sweep e_sweep; do
  run "ncu_$k" 200 "$NCU" --clock-control none --kernel-name "regex:$k" --launch-skip 31 --launch-count 2 --metrics $m --csv \
    "$b/fused_stream" 7 20 32 "prefetch 32x32 min1"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
for k in fused_step h_sweep e_sweep; do
  echo "== $k"
  ncu_values "ncu_$k"
done
