#!/usr/bin/env bash
# Twenty-first session, call 8 (4 GPUs): where the pushing sweeps stop paying, between the 128^2
# planes that win and the 256^2 that lose (kPushingPlaneNodes = 32768). Strong 160^3, 192^3 and
# 224^3 on 1 and 4 GPUs under graph (400 steps x 9), pushing forced (yeex-in,
# YEEX_PUSHING_SWEEPS=1) and the split forced (yeex-split), twice.
#   BUILD_DIR=build/slim scripts/gpu/session-go.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
env_bin yeex-in YEEX_PUSHING_SWEEPS=1
env_bin yeex-split YEEX_PUSHING_SWEEPS=0
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,4 --exchanges graph)
for rep in 1 2; do
  for size in 160 192 224; do
    for bin in yeex-in yeex-split; do run "strong${size}_${bin}_$rep" 100 "$b/$bin" "${long[@]}" --size $size; done
  done
  pack
done
pushing_report
