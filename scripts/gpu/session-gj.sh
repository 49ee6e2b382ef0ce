#!/usr/bin/env bash
# Twenty-first session, call 3 (4 GPUs): call 2 found the pushing sweeps' loss at 640^3 with no
# fence, no wait or no store. Is it the kernel? This build passes the pushing blocks' verdict
# through __syncthreads_and (no shared memory); yeex-shm is call 2's (a shared flag). Weak scaling
# on the 640 x 640 x 160 slab deck with both and the split; then Nsight Compute on each sweep
# kernel of a 4-step run of 640 x 640 x 320 on 2 GPUs under graph with YEEX_PUSH_EXPERIMENT=3 (no
# waits, so that ncu's serialised kernels cannot stall), for both builds.
#   BUILD_DIR=build/slim scripts/gpu/session-gj.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
slab_start graph
env_bin yeex-split YEEX_PUSHING_SWEEPS=0
for rep in 1 2; do
  for bin in yeex yeex-shm yeex-split; do run "weak160_${bin}_$rep" 150 "$b/$bin" "${bench[@]:1}" "${weak[@]}"; done
  pack
done
box_deck slab320 640 640 320 4
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for bin in yeex yeex-shm; do
  YEEX_PUSH_EXPERIMENT=3 run "ncu_$bin" 200 "$ncu" --clock-control none --kernel-name "regex:yee_.*sweep" --launch-count 24 --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,launch__shared_mem_config_size,launch__grid_size,device__attribute_display_name \
    "$b/$bin" run "$out/slab320.toml" --engine cuda --gpus 2 --exchange graph --output "$out/o_$bin"
  rm -rf "$out/o_$bin"
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "weak " "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $7, $12, $13}'
for bin in yeex yeex-shm; do
  echo "== $bin"
  grep '^"' "$out/ncu_$bin.txt" | awk -F'","' 'NR > 1 {print $5, $(NF-2), $NF}' | tr -d '"' | sed -E 's/\(float[^)]*\)//; s/yeex::\(anonymous namespace\):://' | cut -c1-160
done
