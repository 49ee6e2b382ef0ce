#!/usr/bin/env bash
# Nsight Compute on one GPU, ncu-cpml.sh's metrics for one step's sweep launches of 512^3 with
# 10-cell CPML on every face, under each environment given ("VAR=VALUE [VAR=VALUE ...]" or "base"):
# OUT_DIR/ncu_LABEL.csv, LABEL the argument with '=', ',' and ' ' as '_' (ninth session, issue 5).
# NCU_SKIP and NCU_COUNT change the launches profiled (default: skip 8, then 8).
#   scripts/gpu/ncu-variants.sh OUT_DIR base YEEX_CPML_ALIGN=16 ...   (build in build/slim)
set -uo pipefail
export NCCL_NVLS_ENABLE=0 CUDA_VISIBLE_DEVICES=0
b=build/slim
out=$1; shift; mkdir -p "$out"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" > "$out/ncu.txt"; $NCU --version >> "$out/ncu.txt" 2>&1
m=gpu__time_duration.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
for v in "$@"; do
  label=$(echo "$v" | tr '=, ' '___')
  env=(); [[ $v != base ]] && read -r -a env <<< "$v"
  # One step after a step of warm-up: 4 sweep launches per half-step (3 shell pairs, the plain box).
  timeout 200 env "${env[@]}" $NCU --clock-control none --kernel-name "regex:yee_s(weep|trip)_kernel" --launch-skip "${NCU_SKIP:-8}" --launch-count "${NCU_COUNT:-8}" \
    --metrics $m --csv $b/yeex bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 2 --warmup 0 --repeats 1 \
    --exchanges overlap --cpml 10 > "$out/ncu_$label.csv" 2> "$out/ncu_$label.err"
  echo "$v exit $?" >> "$out/ncu.txt"
done
