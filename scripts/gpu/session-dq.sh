#!/usr/bin/env bash
# Thirteenth session, call 25 (one GPU): coop's double PEC kernel with inject_sources as a call
# (the build, yeex) against the final build before it (yeex-prev, 75f3e8e): the gpu tests, the CPML
# deck's bits under coop on 1 and 4 slabs, coop at 512^3 f64, f64 with CPML, f32 and 128^3 f32,
# in turn, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_multi_gpu test_cuda_engine; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
cpml_deck
coop_bits yeex yeex-prev
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --exchanges coop)
for rep in 1 2; do
  for bin in yeex yeex-prev; do
    for c in "512 --precision f64 --steps 60 --repeats 5" "512 --precision f64 --cpml 10 --steps 60 --repeats 5" \
      "512 --steps 60 --repeats 5" "128 --steps 400 --repeats 9"; do
      # shellcheck disable=SC2086 # $c carries the size and its options
      run "${bin}_$(echo "${c%% --steps*}" | tr -d ' -')_$rep" 60 "$b/$bin" "${args[@]}" --size $c
    done
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt; cat "$out/bits.txt"
grep -H "coop " "$out"/yeex*.txt | sed "s|$out/||" | awk '{print $1, $7}' | sort
