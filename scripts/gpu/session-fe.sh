#!/usr/bin/env bash
# Eighteenth session, call 1 (4 GPUs, the first multi-GPU machine since the sixth session): issue
# 3's table on the current code. The machine and its links; every gpu test binary on 4 GPUs; then
# the efficiency table, every backend, T1 (the engine on one GPU) and each backend's own one-GPU
# run in the same invocation: weak 512^3 per GPU on 1, 2, 4 GPUs; strong 512^3, 256^3 and 128^3
# (the small ones 400 steps x 9); b2r R = 3, 4 at 128^3; peer access off (weak and strong 512^3);
# GPU pairs 0,1 and 0,3 at 256^3. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-fe.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
{
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
  nvidia-smi topo -m
} > "$out/machine.txt" 2>&1
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 200 "$t" --gtest_color=no --gtest_brief=1; done; pack
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_512 100 "${bench[@]}" --scaling strong --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"; pack
run strong_256 100 "${long[@]}" --size 256 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"; pack
run strong_128 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"; pack
for R in 3 4; do run "strong_128_b2r_R$R" 60 "${long[@]}" --size 128 --counts 4 --exchanges b2r --halo-depth $R --json "$out/strong_128_b2r_R$R.json"; done
run nopeer_weak_512 100 "${bench[@]}" --no-peer --scaling weak --size 512 --counts 1,2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 --json "$out/nopeer_weak_512.json"
run nopeer_strong_512 100 "${bench[@]}" --no-peer --scaling strong --size 512 --counts 1,2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 --json "$out/nopeer_strong_512.json"; pack
for pair in 0,1 0,3; do
  run "gpus_${pair/,/_}_strong_256" 60 "${long[@]}" --devices "$pair" --size 256 --counts 1,2 --exchanges $all --halo-depth 2 --json "$out/gpus_${pair/,/_}_strong_256.json"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/tests_*.txt
