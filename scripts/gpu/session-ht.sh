#!/usr/bin/env bash
# Twenty-fifth session, call 3 (all GPUs): node pairs in coop's persistent sweep (float without
# CPML, blocks of 512 threads, 3 a multiprocessor, tiles 64 x 16). Every gpu test (new: coop's pairs
# against one node a thread on 1-4 slabs); coop on one GPU at 512^3, 256^3 and 128^3, pairs
# against YEEX_COOP_PAIRS=0, 512^3 three times in turn; weak 512^3 and strong 256^3 on 1 and all
# GPUs, coop and overlap, pairs and not.
#   BUILD_DIR=build/slim scripts/gpu/session-ht.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
tested_start
for rep in 1 2 3; do
  for pairs in 1 0; do
    run "one512_p${pairs}_$rep" 60 env YEEX_COOP_PAIRS=$pairs "${one[@]}" --exchanges coop --size 512
  done
done
for size in 256 128; do
  for pairs in 1 0; do run "one${size}_p$pairs" 60 env YEEX_COOP_PAIRS=$pairs "${one[@]}" --exchanges coop --size "$size"; done
done
pack
all_gpus yeex
for pairs in 1 0; do
  run "weak_p$pairs" 120 env YEEX_COOP_PAIRS=$pairs "${x[@]}" --exchanges coop,overlap --scaling weak --size 512
  run "strong_p$pairs" 120 env YEEX_COOP_PAIRS=$pairs "${x[@]}" --exchanges coop,overlap --scaling strong --size 256
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
grep -H "coop \| - \|overlap " "$out"/one*.txt "$out"/weak*.txt "$out"/strong*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12, $13}'
cat "$out/summary.txt"
