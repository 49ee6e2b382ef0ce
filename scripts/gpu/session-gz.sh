#!/usr/bin/env bash
# Twenty-third session, call 4 (all GPUs): does the size of the field allocations move the sweep?
# An experiment build (yeex-alloc, not kept) rounds every array of 64 MiB or more up to
# YEEX_EXP_ALLOC_MIB MiB (and prints the allocations under YEEX_EXP_PRINT). At 512^3 in float a
# field array is 518.1 MiB with one ghost plane a side (the engine, graph) and 520.1 with two (b2r
# R = 2), so cudaMalloc's 2 MiB granularity puts consecutive arrays 520 and 522 MiB apart.
# Weak 512^3: the engine, b2r and graph on one GPU for each rounding, twice; then on 1 and 2 GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-gz.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
n=$(nvidia-smi -L | wc -l)
one=("$b/yeex-alloc" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --exchanges b2r,graph)
for rep in 1 2; do
  for mib in 0 4 8 16 32 64 128; do
    p=(); ((rep == 1)) && p=(YEEX_EXP_PRINT=1)
    run "one_m${mib}_$rep" 60 env "${p[@]}" YEEX_EXP_ALLOC_MIB=$mib "${one[@]}" --counts 1
  done
done
pack
for mib in 0 8 16 64; do run "two_m$mib" 90 env YEEX_EXP_ALLOC_MIB=$mib "${one[@]}" --counts 1,"$n"; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "weak " "$out"/one_*.txt "$out"/two_*.txt | sed "s|$out/||" | awk '{print $1, $4, $5, $6, $7, $8, $12, $13}'
grep -m8 "alloc" "$out/one_m0_1.txt" "$out/one_m8_1.txt"
