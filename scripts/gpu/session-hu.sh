#!/usr/bin/env bash
# Twenty-fifth session, call 4 (all GPUs): coop's node pairs in three block shapes, built with
# -DYEEX_COOP_PAIR_BLOCK=B -DYEEX_COOP_PAIR_MIN_BLOCKS=M: `yeex` 512 threads x 3 a multiprocessor
# (40 registers), `yeex-b256` 256 x 6 (40), `yeex-b1024` 1024 x 1 (64). Coop on one GPU at 512^3
# three times in turn, 256^3 and 128^3 once; weak 512^3 on 1 and all GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-hu.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
bins=(yeex yeex-b256 yeex-b1024)
for rep in 1 2 3; do
  for bin in "${bins[@]}"; do
    run "one512_${bin}_$rep" 60 "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges coop --size 512
  done
done
for size in 256 128; do
  for bin in "${bins[@]}"; do
    run "one${size}_$bin" 60 "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges coop --size "$size"
  done
done
pack
for bin in "${bins[@]}"; do
  all_gpus "$bin"
  run "weak_$bin" 120 "${x[@]}" --exchanges coop --scaling weak --size 512
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - " "$out"/one*.txt "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12, $13}'
cat "$out/summary.txt"
