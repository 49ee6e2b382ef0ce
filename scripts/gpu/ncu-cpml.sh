#!/usr/bin/env bash
# Nsight Compute on one GPU: per-kernel duration, DRAM bytes, occupancy, sectors per request and
# instructions of the sweep kernels, two steps of 512^3 with 10-cell CPML on every face and two of
# the PEC box (sixth session, issue 5; DRAM throughput, L2 hit rate and long-scoreboard stalls
# since the eighth).
#   scripts/gpu/ncu-cpml.sh OUT_DIR   (build in build/slim)
set -uo pipefail
export NCCL_NVLS_ENABLE=0 CUDA_VISIBLE_DEVICES=0
b=build/slim
out=$1; mkdir -p $out
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" > $out/ncu.txt; $NCU --version >> $out/ncu.txt 2>&1
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
for c in 10 0; do
  # Two steps' sweep launches: with CPML 4 per half-step (the three shell pairs and the plain
  # box; 7 before the eighth session), without 1.
  n=16; [[ $c == 0 ]] && n=4
  timeout 200 $NCU --clock-control none --kernel-name regex:yee_sweep_kernel --launch-skip $n --launch-count $n --metrics $m --csv \
    $b/yeex bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 4 --warmup 0 --repeats 1 --exchanges overlap --cpml $c > $out/ncu_cpml$c.csv 2> $out/ncu_cpml$c.err
  echo "cpml $c exit $?" >> $out/ncu.txt
done
