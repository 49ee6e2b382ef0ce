#!/usr/bin/env bash
# One device call (4 GPUs): weak 512^3/GPU on 4 GPUs for the border-first backends and coop,
# strong 256^3 and 128^3 for every backend, MPI-mode checksums, host-staged in 4 pieces.
#   scripts/gpu/session-b.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
run bench_weak_512_x4 180 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges overlap,nccl,b2r,coop --json "$out/bench_weak_512_x4.json"
run bench_strong_256 100 "${bench[@]}" --scaling strong --size 256 --counts 1,4 --json "$out/bench_strong_256.json"
run bench_strong_128 70 "${bench[@]}" --scaling strong --size 128 --counts 4 --json "$out/bench_strong_128.json"
YEEX_SKIP_BENCH=1 OUT=$out/mpi run mpi_check 150 scripts/gpu/mpi-check.sh $b
YEEX_STAGED_CHUNKS=4 run staged_chunks_4 60 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges host-staged
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
