#!/usr/bin/env bash
# Thirteenth session, call 16 (one GPU): coop without bands on short sweeps (fewer than 160 tiles
# per block; the build, yeex) against bands everywhere (yeex-prev, b452096): the gpu tests, the CPML
# deck's bits under coop on 1 and 4 slabs, coop at 128^3 (400 x 9), 256^3, 320^3, 384^3, 512^3
# f32, 512^3 f64 and 512^3 CPML with both builds in turn, and validate with coop.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_multi_gpu test_cuda_engine; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
cpml_deck
coop_bits yeex yeex-prev
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --exchanges coop)
for bin in yeex yeex-prev; do
  run "${bin}_128" 60 "$b/$bin" "${args[@]}" --size 128 --steps 400 --repeats 9
  for c in "256" "320" "384" "512" "512 --precision f64" "512 --cpml 10"; do
    # shellcheck disable=SC2086 # $c carries the size and its options
    run "${bin}_$(echo "$c" | tr -d ' -')" 60 "$b/$bin" "${args[@]}" --steps 60 --repeats 5 --size $c
  done
done
run validate_coop 200 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --json "$out/validate_coop.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt; cat "$out/bits.txt"
grep -H "coop " "$out"/yeex*.txt | sed "s|$out/||" | awk '{print $1, $6, $7}' | sort
grep "problem(s)" "$out/validate_coop.txt"
