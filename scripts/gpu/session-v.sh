#!/usr/bin/env bash
# One device call (4 GPUs), sixth session, second: the push kernel's blocks per run
# (YEEX_PUSH_BLOCKS 4, 8, 32) against the copy engines, for b2r (R = 2) and overlap: strong 128^3
# (400 steps x 9, twice: the run-to-run spread), 256^3 and 512^3, weak 512^3/GPU (100 steps x 5);
# b2r weak at R = 3 and under --no-peer. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-v.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 4 --halo-depth 2)
mid=("$b/yeex" bench --engine cuda --steps 100 --warmup 20 --repeats 5 --counts 4)
for v in copy k4 k8 k32; do
  env=(env YEEX_PEER_PUSH=kernel YEEX_PUSH_BLOCKS=${v#k}); [[ $v == copy ]] && env=(env YEEX_PEER_PUSH=copy)
  run "s128a_$v" 40 "${env[@]}" "${long[@]}" --size 128 --exchanges overlap,b2r --json "$out/s128a_$v.json"
  run "s512_$v" 40 "${env[@]}" "${mid[@]}" --scaling strong --size 512 --exchanges overlap,b2r --halo-depth 2 --json "$out/s512_$v.json"
  run "w512_$v" 60 "${env[@]}" "${mid[@]}" --scaling weak --size 512 --exchanges overlap,b2r --halo-depth 2 --json "$out/w512_$v.json"
  pack
done
for v in copy k4 k8 k32; do
  env=(env YEEX_PEER_PUSH=kernel YEEX_PUSH_BLOCKS=${v#k}); [[ $v == copy ]] && env=(env YEEX_PEER_PUSH=copy)
  run "s128b_$v" 40 "${env[@]}" "${long[@]}" --size 128 --exchanges overlap,b2r --json "$out/s128b_$v.json"
  run "s256_$v" 40 "${env[@]}" "${long[@]}" --size 256 --exchanges overlap,b2r --json "$out/s256_$v.json"
  pack
done
run w512_b2r_R3 60 "${mid[@]}" --scaling weak --size 512 --exchanges b2r --halo-depth 3 --json "$out/w512_b2r_R3.json"
run w512_nopeer 60 "${mid[@]}" --no-peer --scaling weak --size 512 --exchanges host-staged,b2r --halo-depth 2 --json "$out/w512_nopeer.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
