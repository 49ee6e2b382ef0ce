#!/usr/bin/env bash
# One device call (4 GPUs), fifth session, last: the final build's gpu tests on 4 GPUs and the
# 4-GPU efficiency table with the spinning barrier (strong 128^3 also with YEEX_TEAM_SPIN=0), in
# the order of importance; OUT_DIR.tar.gz is refreshed after every step (the call may be cut).
#   BUILD_DIR=build/slim scripts/gpu/session-s.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 120 "$t" --gtest_color=no --gtest_brief=1; done; pack
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
run weak_512 100 "${bench[@]}" --scaling weak --size 512 --counts 2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_256 100 "${long[@]}" --size 256 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"; pack
run strong_128 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"; pack
YEEX_TEAM_SPIN=0 run strong_128_sleep 100 "${long[@]}" --size 128 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_128_sleep.json"; pack
run strong_512 100 "${bench[@]}" --scaling strong --size 512 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"; pack
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
