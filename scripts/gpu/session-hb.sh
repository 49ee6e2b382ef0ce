#!/usr/bin/env bash
# Twenty-third session, call 6 (all GPUs): the committed allocation rounding (arrays of 128 MiB or
# more in multiples of 32 MiB: kernels/field_layout.hpp) under the engine's and several GPUs'
# tests, then against the plain sizes (YEEX_ARRAY_ROUNDING_MIB=0) in turn: weak 512^3 in float
# (b2r, graph, overlap, coop; twice), weak on 640 x 640 x 160 a GPU (one GPU's slab of 640^3 over
# 4; graph, overlap, host-staged), strong 640^3 (graph, overlap), weak 512^3 in double (b2r,
# graph) and 384^3 on one GPU (graph).
#   BUILD_DIR=build/slim scripts/gpu/session-hb.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
box_deck slab160 640 640 160 2000
gpu_test_pair test_cuda_engine test_multi_gpu
pack
all_gpus yeex
for rep in 1 2; do
  for mib in 0 32; do
    e=(env YEEX_ARRAY_ROUNDING_MIB=$mib)
    run "weak512_m${mib}_$rep" 90 "${e[@]}" "${x[@]}" --scaling weak --size 512 --exchanges b2r,graph,overlap,coop
    ((rep == 2)) && continue
    run "slab160_m$mib" 90 "${e[@]}" "${x[@]}" --deck "$out/slab160.toml" --scaling weak --exchanges graph,overlap,host-staged
    run "strong640_m$mib" 90 "${e[@]}" "${x[@]}" --scaling strong --size 640 --exchanges graph,overlap
    run "weak512f64_m$mib" 90 "${e[@]}" "${x[@]}" --scaling weak --size 512 --precision f64 --exchanges b2r,graph
    run "one384_m$mib" 60 "${e[@]}" "$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --counts 1 --size 384 --exchanges graph
    pack
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
tail -n 3 "$out"/test_*.txt
grep -H "weak \|strong " "$out"/*_m*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $4, $5, $6, $7, $8, $12, $13}'
