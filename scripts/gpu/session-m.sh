#!/usr/bin/env bash
# One device call (4 GPUs), fifth session, fourth call, on the build to commit: scripts/gpu-check.sh
# (every gpu test, the default deck, the engine bench), the spinning team barrier against the
# sleeping one (YEEX_TEAM_SPIN=0) at the latency-bound sizes, the full efficiency tables (weak
# 512^3/GPU; strong 128^3 with 400 steps x 9, 256^3 with 200 x 9, 512^3; --no-peer), validate and
# the MPI-mode checksums.
# Two calls: PART=1 (default) up to the weak table, PART=2 the rest. COUNTS: the GPU counts
# (default 2,4; 2 on nvidia-h200-x2).
#   BUILD_DIR=build/slim [PART=2] scripts/gpu/session-m.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
if [[ ${PART:-1} == 1 ]]; then
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
long=("$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong)
YEEX_TEAM_SPIN=0 run strong_128_sleep 150 "${long[@]}" --size 128 --counts 1,${COUNTS:-2,4} --exchanges $all --halo-depth 2 --json "$out/strong_128_sleep.json"
run strong_128 150 "${long[@]}" --size 128 --counts 1,${COUNTS:-2,4} --exchanges $all --halo-depth 2 --json "$out/strong_128.json"
YEEX_TEAM_SPIN=0 run strong_256_sleep 150 "${long[@]}" --size 256 --counts ${COUNTS:-2,4} --exchanges $all --halo-depth 2 --json "$out/strong_256_sleep.json"
run strong_256 150 "${long[@]}" --size 256 --counts ${COUNTS:-2,4} --exchanges $all --halo-depth 2 --json "$out/strong_256.json"
run strong_512 150 "${bench[@]}" --scaling strong --size 512 --counts ${COUNTS:-2,4} --exchanges $all --halo-depth 2 --json "$out/strong_512.json"
run weak_512 150 "${bench[@]}" --scaling weak --size 512 --counts ${COUNTS:-2,4} --exchanges $all --halo-depth 2 --json "$out/weak_512.json"
fi
[[ ${PART:-1} == 1 ]] && { echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"; exit 0; }
run nopeer 150 "${bench[@]}" --no-peer --scaling both --size 256 512 --counts ${COUNTS:-2,4} --exchanges host-staged,p2p,b2r --halo-depth 2 \
  --json "$out/nopeer.json"
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh
OUT=$out/mpi YEEX_SKIP_BENCH=1 run mpi_check 200 scripts/gpu/mpi-check.sh "$b"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
