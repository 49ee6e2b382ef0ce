#!/usr/bin/env bash
# One device call (4 GPUs), sixth session, third: the gpu tests of the build (push kernel, 8
# blocks per run, the default for b2r); b2r weak 512^3/GPU with the push kernel slowed down
# (YEEX_PUSH_BLOCKS 1, 2), with evict-first loads and stores (YEEX_PUSH_STREAMING) and by the
# copy engines; coop weak with bands of 96 and 128 planes; then the efficiency table of the
# build (every backend: weak 512^3/GPU on 2 and 4 GPUs, strong 128^3 and 256^3 with 400 steps x 9,
# strong 512^3), b2r at R = 3 and 4 at 128^3. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-w.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 120 "$t" --gtest_color=no --gtest_brief=1; done; pack
mid=("$b/yeex" bench --engine cuda --steps 100 --warmup 20 --repeats 5 --counts 4 --scaling weak --size 512)
run w512_b2r_k8 40 "${mid[@]}" --exchanges b2r --halo-depth 2
run w512_b2r_k1 40 env YEEX_PUSH_BLOCKS=1 "${mid[@]}" --exchanges b2r --halo-depth 2
run w512_b2r_k2 40 env YEEX_PUSH_BLOCKS=2 "${mid[@]}" --exchanges b2r --halo-depth 2
run w512_b2r_k8s 40 env YEEX_PUSH_STREAMING=1 "${mid[@]}" --exchanges b2r --halo-depth 2
run w512_b2r_k1s 40 env YEEX_PUSH_BLOCKS=1 YEEX_PUSH_STREAMING=1 "${mid[@]}" --exchanges b2r --halo-depth 2
run w512_b2r_copy 40 env YEEX_PEER_PUSH=copy "${mid[@]}" --exchanges b2r --halo-depth 2; pack
run w512_coop_b96 40 env YEEX_COOP_BAND=96 "${mid[@]}" --exchanges coop
run w512_coop_b128 40 env YEEX_COOP_BAND=128 "${mid[@]}" --exchanges coop; pack
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
run weak_512 100 "${bench[@]}" --scaling weak --size 512 --counts 2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_256 100 "${long[@]}" --size 256 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"; pack
run strong_128 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"; pack
run strong_512 100 "${bench[@]}" --scaling strong --size 512 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"; pack
for R in 3 4; do run "strong_128_b2r_R$R" 60 "${long[@]}" --size 128 --counts 4 --exchanges b2r --halo-depth $R --json "$out/strong_128_b2r_R$R.json"; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
