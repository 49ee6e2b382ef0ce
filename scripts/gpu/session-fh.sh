#!/usr/bin/env bash
# Eighteenth session, call 4 (4 GPUs): where the small grids' floor of the host-driven backends
# goes (overlap, nccl, host-staged and b2r took 43-66 us a step at 128^3 on 2 and on 4 GPUs, as
# much as one GPU's whole step). Strong 64^3 and 96^3 on 1, 2, 4 GPUs, every backend, 400 steps
# x 9 (the GPU's share of work is small there: what is left is the host's issue time per step);
# 128^3 on 4 GPUs with the thread team's barrier sleeping at once (YEEX_TEAM_SPIN=0) against
# spinning; b2r at 128^3 with the copy engines instead of its push kernel (YEEX_PEER_PUSH=copy).
#   BUILD_DIR=build/slim scripts/gpu/session-fh.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
for size in 64 96; do
  run "strong_$size" 90 "${long[@]}" --size $size --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_$size.json"
done; pack
run strong_128_spin 60 "${long[@]}" --size 128 --counts 4 --exchanges overlap,nccl,b2r --halo-depth 2
run strong_128_nospin 60 env YEEX_TEAM_SPIN=0 "${long[@]}" --size 128 --counts 4 --exchanges overlap,nccl,b2r --halo-depth 2
run strong_128_b2r_copy 60 env YEEX_PEER_PUSH=copy "${long[@]}" --size 128 --counts 2,4 --exchanges b2r --halo-depth 2
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -hv "^#" "$out"/strong_*.txt
