#!/usr/bin/env bash
# Twentieth session, call 6 (4 GPUs): the 640^3 loss, continued. Weak scaling on the 640 x 640 x
# 160 slab deck on 1, 2 and 4 GPUs (host-staged, overlap): as before (50 steps x 5); with
# CUDA_DEVICE_MAX_CONNECTIONS=32 (streams that share a hardware queue would serialise); with 400
# steps x 3 (the host's part of a repeat spread over more steps).
#   BUILD_DIR=build/slim scripts/gpu/session-gb.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
slab_start host-staged,overlap
for rep in 1 2; do
  run "weak_$rep" 200 "${bench[@]}" "${weak[@]}"
  run "weak_conn32_$rep" 200 env CUDA_DEVICE_MAX_CONNECTIONS=32 "${bench[@]}" "${weak[@]}"
  run "weak_long_$rep" 200 "$b/yeex" bench --engine cuda --steps 400 --warmup 10 --repeats 3 "${weak[@]}"
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "weak " "$out"/weak_*.txt | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $12, $13}'
