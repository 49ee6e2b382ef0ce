#!/usr/bin/env bash
# Thirteenth session, call 24 (one GPU): coop's inject_sources not inlined (yeex-ni: the final build
# with coop-inject-noinline.patch; no kernel spills) against the final build (yeex): coop at 128^3
# (400 x 9), 256^3, 512^3 f32, 512^3 f64 and 512^3 CPML, in turn, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --exchanges coop)
for rep in 1 2; do
  for bin in yeex yeex-ni; do
    run "${bin}_128_$rep" 60 "$b/$bin" "${args[@]}" --size 128 --steps 400 --repeats 9
    for c in "256" "512" "512 --precision f64" "512 --cpml 10"; do
      # shellcheck disable=SC2086 # $c carries the size and its options
      run "${bin}_$(echo "$c" | tr -d ' -')_$rep" 60 "$b/$bin" "${args[@]}" --steps 60 --repeats 5 --size $c
    done
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop " "$out"/yeex*.txt | sed "s|$out/||" | awk '{print $1, $7}' | sort
