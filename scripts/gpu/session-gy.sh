#!/usr/bin/env bash
# Twenty-third session, call 3 (all GPUs): scripts/gpu-check.sh on the committed code (the same
# code as ded7d4d), then weak 512^3 a GPU for b2r at R = 1 and R = 2, graph and
# overlap, twice: what b2r's recomputed border costs at R = 2.
#   BUILD_DIR=build/slim scripts/gpu/session-gy.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
n=$(nvidia-smi -L | wc -l)
run gpu_check 420 scripts/gpu-check.sh "$b" "$out/check"
pack
weak=("${bench[@]}" --scaling weak --size 512 --counts 1,"$n")
for rep in 1 2; do
  for R in 1 2; do run "weak_b2r_R${R}_$rep" 90 "${weak[@]}" --exchanges b2r,graph,overlap --halo-depth $R --json "$out/weak_R${R}_$rep.json"; done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -A3 "^## result\|PASS\|FAIL\|checksum" "$out/check/gpu-check.log" | head -20
grep -H "weak " "$out"/weak_b2r*.txt | sed "s|$out/||" | awk '{print $1, $4, $5, $6, $7, $11, $12}'
