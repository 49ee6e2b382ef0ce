#!/usr/bin/env bash
# Thirteenth session, call 3 (one GPU): Nsight Compute of coop's kernel (one launch of 4 steps at
# 512^3 f32): yeex-prev (two sweeps, bands) against the fused step with all its synchronisation
# (YEEX_COOP_EXP=0) and with none (15, wrong fields, timing only): DRAM bytes, L2 hit rate, stalls.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
one=(bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 4 --warmup 0 --repeats 1 --exchanges coop)
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum)
run ncu_prev 120 "$NCU" "${sections[@]}" -k regex:coop_kernel -c 1 "$b/yeex-prev" "${one[@]}"
run ncu_exp0 120 env YEEX_COOP_EXP=0 "$NCU" "${sections[@]}" -k regex:coop_kernel -c 1 "$b/yeex-exp" "${one[@]}"
run ncu_exp15 120 env YEEX_COOP_EXP=15 "$NCU" "${sections[@]}" -k regex:coop_kernel -c 1 "$b/yeex-exp" "${one[@]}"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
for f in "$out"/ncu_*.txt; do
  echo "== $(basename "$f")"
  grep -E "Duration|DRAM Throughput|dram__bytes|lts__t_sector_hit_rate|L2 Hit Rate|L1/TEX Hit|Memory Throughput|lts__t_sectors_srcunit|Stall|Warp Cycles Per Issued|Issued Warp|No Eligible" "$f" | head -40
done
