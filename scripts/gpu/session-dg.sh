#!/usr/bin/env bash
# Thirteenth session, call 12 (one GPU): a run on one subdomain under overlap, b2r or nccl sweeps
# without the border-first lanes' marks and follows (the build, yeex) against yeex-prev: the gpu
# tests, then the one-GPU bench rows (the T1 row runs overlap) at 128^3 (400 steps x 9), 256^3 and
# 512^3, both builds in turn, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_multi_gpu test_cuda_engine; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges overlap,p2p,b2r,nccl)
for rep in 1 2; do
  for bin in yeex yeex-prev; do
    run "${bin}_128_$rep" 60 "$b/$bin" "${args[@]}" --size 128 --steps 400 --repeats 9
    run "${bin}_256_512_$rep" 90 "$b/$bin" "${args[@]}" --size 256 512 --steps 100 --repeats 5
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
for f in "$out"/yeex*_1*.txt "$out"/yeex*_2*.txt; do echo "== $(basename "$f")"; grep -E "^strong" "$f" | awk '{print $2, $4, $6, $7}'; done
