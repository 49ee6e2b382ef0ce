#!/usr/bin/env bash
# Twenty-second session, call 3 (4 GPUs): issue 3's table on the committed code (b2r on graph's
# transport, graph's pushing sweeps up to 192^2-node planes). Every backend, T1 (the engine on one
# GPU) and each backend's own one-GPU run in the same invocation: weak 512^3 a GPU on 1, 2, 4;
# strong 512^3, 256^3 and 128^3 (the small ones 400 steps x 9) on 1, 2, 4; b2r R = 3, 4 at 128^3;
# strong at 268 M cells, 640^3 and 256 x 256 x 4096 (the reference codes' 16384^2), on 1 and 4;
# peer access off (weak and strong 512^3); the GPU pairs 0,1 and 0,3 at 256^3.
#   BUILD_DIR=build/slim scripts/gpu/session-gr.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
{
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
  nvidia-smi topo -m
} > "$out/machine.txt" 2>&1
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_512 100 "${bench[@]}" --scaling strong --size 512 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"; pack
run strong_256 100 "${long[@]}" --size 256 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"; pack
run strong_128 100 "${long[@]}" --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"; pack
for R in 3 4; do run "strong_128_b2r_R$R" 60 "${long[@]}" --size 128 --counts 4 --exchanges b2r --halo-depth $R --json "$out/strong_128_b2r_R$R.json"; done
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_640.json"; pack
sed -e 's/^cells = \[512, 512, 512\]/cells = [256, 256, 4096]/' -e 's/^cell_size = \[1e-3, 1e-3, 1e-3\]/cell_size = [2e-3, 2e-3, 1.25e-4]/' \
  inputs/bench_box.toml > "$out/tall.toml"
run strong_tall 200 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_tall.json"; pack
run nopeer_weak_512 100 "${bench[@]}" --no-peer --scaling weak --size 512 --counts 1,2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 --json "$out/nopeer_weak_512.json"
run nopeer_strong_512 100 "${bench[@]}" --no-peer --scaling strong --size 512 --counts 1,2,4 --exchanges host-staged,p2p,b2r --halo-depth 2 --json "$out/nopeer_strong_512.json"; pack
for pair in 0,1 0,3; do
  run "gpus_${pair/,/_}_strong_256" 60 "${long[@]}" --devices "$pair" --size 256 --counts 1,2 --exchanges $all --halo-depth 2 --json "$out/gpus_${pair/,/_}_strong_256.json"
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "strong \|weak " "$out"/*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $7, $12, $13}'
