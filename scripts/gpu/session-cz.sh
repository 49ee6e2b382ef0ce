#!/usr/bin/env bash
# Thirteenth session, call 4 (one GPU): the fused step's DRAM bytes where a few planes fit in L2:
# Nsight Compute of coop's kernel (one launch of 4 steps) at 256^3 f32, yeex-prev against the
# fused step (skew 6, the default there, and 2), and the same at 512^3 with skew 1; timings of both
# builds at 256^3 and 128^3.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
m=(--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed)
one=(bench --engine cuda --gpus 1 --counts 1 --steps 4 --warmup 0 --repeats 1 --exchanges coop)
run ncu256_prev 120 "$NCU" "${m[@]}" -k regex:coop_kernel -c 1 "$b/yeex-prev" "${one[@]}" --size 256
run ncu256_exp0 120 "$NCU" "${m[@]}" -k regex:coop_kernel -c 1 "$b/yeex-exp" "${one[@]}" --size 256
run ncu256_exp0_skew2 120 env YEEX_COOP_SKEW=2 "$NCU" "${m[@]}" -k regex:coop_kernel -c 1 "$b/yeex-exp" "${one[@]}" --size 256
run ncu512_exp0_skew1 120 env YEEX_COOP_SKEW=1 "$NCU" "${m[@]}" -k regex:coop_kernel -c 1 "$b/yeex-exp" "${one[@]}" --size 512
run ncu512_exp15_skew1 120 env YEEX_COOP_EXP=15 YEEX_COOP_SKEW=1 "$NCU" "${m[@]}" -k regex:coop_kernel -c 1 "$b/yeex-exp" "${one[@]}" --size 512
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --steps 400 --repeats 9)
for bin in yeex-exp yeex-prev; do for size in 128 256; do run "${bin}_coop$size" 60 "$b/$bin" "${args[@]}" --size $size; done; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
for f in "$out"/ncu*.txt; do echo "== $(basename "$f")"; grep -E "gpu__time|dram__|lts__" "$f"; done
grep -H "coop " "$out"/yeex*.txt | sed "s|$out/||"
