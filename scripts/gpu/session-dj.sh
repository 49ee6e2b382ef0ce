#!/usr/bin/env bash
# Thirteenth session, call 15 (one GPU): where coop's bands stop paying. coop with the default
# bands and with none (YEEX_COOP_BAND=0): f32 at 320^3, 384^3 and 448^3; f64 at 256^3 and 512^3;
# 10-cell CPML (f32) at 256^3 and 512^3; twice each.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --exchanges coop --steps 60 --repeats 5)
cases=("320" "384" "448" "256 --precision f64" "512 --precision f64" "256 --cpml 10" "512 --cpml 10")
for rep in 1 2; do
  for c in "${cases[@]}"; do
    name=$(echo "$c" | tr -d ' -' | sed 's/precision//;s/cpml/cpml/')
    # shellcheck disable=SC2086 # $c carries the size and its options
    run "coop${name}_banddefault_$rep" 60 "$b/yeex" "${args[@]}" --size $c
    # shellcheck disable=SC2086
    run "coop${name}_band0_$rep" 60 env YEEX_COOP_BAND=0 "$b/yeex" "${args[@]}" --size $c
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
grep -H "coop " "$out"/coop*.txt | sed "s|$out/||" | awk '{print $1, $6, $7}' | sort
