#!/usr/bin/env bash
# One device call (4 GPUs), sixth session, first: the gpu tests of the build (the staged transport
# copying each push up once; the peer push kernel), then the peer transport's two pushes against
# each other (YEEX_PEER_PUSH=copy|kernel; default: copy engines for overlap, the kernel for b2r)
# at 128^3, 256^3 and 512^3 strong and 512^3/GPU weak on 4 GPUs, b2r at R = 3 and 4, and
# --no-peer (host-staged, b2r on the staged transport). OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-u.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 120 "$t" --gtest_color=no --gtest_brief=1; done; pack
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
pair=overlap,b2r
for push in default copy kernel; do
  env=(); [[ $push != default ]] && env=(env YEEX_PEER_PUSH=$push)
  run "strong_128_$push" 60 "${env[@]}" "${long[@]}" --size 128 --counts 4 --exchanges $pair --halo-depth 2 --json "$out/strong_128_$push.json"
  run "strong_256_$push" 60 "${env[@]}" "${long[@]}" --size 256 --counts 4 --exchanges $pair --halo-depth 2 --json "$out/strong_256_$push.json"
  run "weak_512_$push" 80 "${env[@]}" "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges $pair --halo-depth 2 --json "$out/weak_512_$push.json"
  pack
done
for R in 3 4; do
  run "strong_128_b2r_R$R" 60 "${long[@]}" --size 128 --counts 4 --exchanges b2r --halo-depth $R --json "$out/strong_128_b2r_R$R.json"
done; pack
run strong_512 80 "${bench[@]}" --scaling strong --size 512 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"; pack
run weak_512_nopeer 80 "${bench[@]}" --no-peer --scaling weak --size 512 --counts 4 --exchanges host-staged,b2r --halo-depth 2 --json "$out/weak_512_nopeer.json"
run strong_512_nopeer 80 "${bench[@]}" --no-peer --scaling strong --size 512 --counts 4 --exchanges host-staged,b2r --halo-depth 2 --json "$out/strong_512_nopeer.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
