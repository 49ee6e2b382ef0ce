#!/usr/bin/env bash
# One device call (1 GPU), ninth session, tenth: what the psi traffic costs the shells, timing
# only: `yeex-exp` (patches/no-psi-timing.patch) with YEEX_EXP_NOPSI=1 neither loads nor stores
# psi (wrong fields); 512^3 f32 against PEC, twice; Nsight Compute on one step's sweep launches
# with and without it.
#   BUILD_DIR=build/slim scripts/gpu/session-bf.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one[0]=$b/yeex-exp
for rep in 1 2; do cpml_variants "$rep" nopsi YEEX_EXP_NOPSI=1; done
one[0]=$b/yeex
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed
for v in base nopsi; do
  e=(); [[ $v == nopsi ]] && e=(YEEX_EXP_NOPSI=1)
  CUDA_VISIBLE_DEVICES=0 timeout 120 env "${e[@]}" "$NCU" --clock-control none --kernel-name regex:yee_sweep_kernel --launch-skip 8 \
    --launch-count 8 --metrics $m --csv "$b/yeex-exp" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 2 --warmup 0 \
    --repeats 1 --exchanges overlap --cpml 10 > "$out/ncu_$v.csv" 2> "$out/ncu_$v.err"
  echo "ncu $v exit $?" >> "$out/summary.txt"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
