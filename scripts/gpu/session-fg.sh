#!/usr/bin/env bash
# Eighteenth session, call 3 (4 GPUs): the comparisons at the reference codes' cell counts and the
# records. Strong scaling at 640^3 (262 M cells: the 16384^2 of NVIDIA's Jacobi ladder and of the
# 2-D FDTD blog post, 268 M), every backend on 1, 2, 4 GPUs; 128^3 (2.1 M cells, the blog's
# 2000 x 1000) on 4 GPUs three more times, every backend, 400 steps x 9 (its spread run to run);
# scripts/gpu-check.sh on the 4 GPUs (the gpu tests again, the default deck, the benchmark);
# scripts/gpu/mpi-check.sh with its bench (MPI mode, 4 ranks, nccl and mpi, against threads mode).
#   BUILD_DIR=build/slim scripts/gpu/session-fg.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_640.json"; pack
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
for rep in 1 2 3; do
  run "strong_128_rep$rep" 60 "${long[@]}" --size 128 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_128_rep$rep.json"
done; pack
run gpu_check 200 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
OUT=$out/mpi run mpi_check 240 scripts/gpu/mpi-check.sh "$b"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "coop \|b2r \|overlap \|nccl \|p2p \|host-staged " "$out"/strong_128_rep*.txt
