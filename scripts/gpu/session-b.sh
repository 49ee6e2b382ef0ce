#!/usr/bin/env bash
# One device call (4 GPUs): weak 512^3/GPU on 4 GPUs for the border-first backends and coop,
# strong 256^3 and 128^3 for every backend, MPI-mode checksums, host-staged in 4 pieces.
#   scripts/gpu/session-b.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: session-b.sh OUT_DIR}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
b=build/cuda
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  git: $(git describe --always --dirty 2>/dev/null)" | tee "$out/summary.txt"
t0=$SECONDS
bench=($b/yeex bench --engine cuda --steps 50 --warmup 10 --repeats 5)
run() {  # name, limit, command...
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$@" > "$out/$name.txt" 2>&1
  echo "$name exit $? ($((SECONDS - t0)) s)" >> "$out/summary.txt"
}
run bench_weak_512_x4 180 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges overlap,nccl,b2r,coop --json "$out/bench_weak_512_x4.json"
run bench_strong_256 100 "${bench[@]}" --scaling strong --size 256 --counts 1,4 --json "$out/bench_strong_256.json"
run bench_strong_128 70 "${bench[@]}" --scaling strong --size 128 --counts 4 --json "$out/bench_strong_128.json"
YEEX_SKIP_BENCH=1 OUT=$out/mpi run mpi_check 150 scripts/gpu/mpi-check.sh $b
YEEX_STAGED_CHUNKS=4 run staged_chunks_4 60 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges host-staged
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
