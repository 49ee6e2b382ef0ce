#!/usr/bin/env bash
# Twenty-third session, call 10 (one GPU, asked on an H100): the allocation rounding against the
# plain sizes (YEEX_ARRAY_ROUNDING_MIB=0), twice in turn: weak 512^3 on one GPU in float (the
# engine, b2r's slab, graph) and in double (the engine), 384^3 and 640^3 (the engine).
#   BUILD_DIR=build/slim scripts/gpu/session-hg.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
x=("$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --counts 1)
for rep in 1 2; do
  for mib in 0 32; do
    e=(env YEEX_ARRAY_ROUNDING_MIB=$mib)
    run "f32_m${mib}_$rep" 60 "${e[@]}" "${x[@]}" --scaling weak --size 512 --exchanges b2r,graph
    run "f64_m${mib}_$rep" 60 "${e[@]}" "${x[@]}" --scaling weak --size 512 --precision f64 --exchanges graph
    run "sizes_m${mib}_$rep" 60 "${e[@]}" "${x[@]}" --scaling strong --size 384 640 --exchanges graph
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
head -2 "$out/machine.txt"
grep -H "weak \|strong " "$out"/*_m*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12}'
