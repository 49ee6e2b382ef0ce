#!/usr/bin/env bash
# Thirteenth session, call 27 (an H100): the session's coop changes on a second kind of machine.
# The gpu tests; coop without bands on short sweeps (the build, yeex) against bands forced
# (YEEX_COOP_BAND=66, the old behaviour there) at 128^3 (400 x 9) and 256^3; the double kernel
# calling inject_sources (yeex) against inlining it (yeex-prev, 75f3e8e) at 512^3 f64; and f32
# 512^3 with both builds; twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_multi_gpu test_cuda_engine
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --exchanges coop)
for rep in 1 2; do
  run "bands0_128_$rep" 60 "$b/yeex" "${args[@]}" --size 128 --steps 400 --repeats 9
  run "bands66_128_$rep" 60 env YEEX_COOP_BAND=66 "$b/yeex" "${args[@]}" --size 128 --steps 400 --repeats 9
  run "bands0_256_$rep" 60 "$b/yeex" "${args[@]}" --size 256 --steps 60 --repeats 5
  run "bands66_256_$rep" 60 env YEEX_COOP_BAND=66 "$b/yeex" "${args[@]}" --size 256 --steps 60 --repeats 5
  for bin in yeex yeex-prev; do
    run "${bin}_512f64_$rep" 60 "$b/$bin" "${args[@]}" --size 512 --precision f64 --steps 40 --repeats 5
    run "${bin}_512_$rep" 60 "$b/$bin" "${args[@]}" --size 512 --steps 60 --repeats 5
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
grep -H "coop \| - " "$out"/bands*.txt "$out"/yeex*.txt | sed "s|$out/||" | awk '{print $1, $6, $7}' | sort
