#!/usr/bin/env bash
# One device call (4 GPUs): every gpu test, the ping-pong latency, weak scaling 512^3/GPU for every
# backend, host-staged piece counts. Output under OUT_DIR.
#   scripts/gpu/session-a.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: session-a.sh OUT_DIR}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
b=build/cuda
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  git: $(git describe --always --dirty 2>/dev/null)" | tee "$out/summary.txt"
t0=$SECONDS
OUT=$out timeout 260 scripts/gpu/gpu-tests.sh $b > "$out/gpu-tests.log" 2>&1; echo "gpu tests exit $? ($((SECONDS - t0)) s)" | tee -a "$out/summary.txt"
grep -E "PASSED|FAILED|SKIPPED" "$out/gpu-tests.log" | tee -a "$out/summary.txt"
timeout 60 $b/yeex-p2p --test pingpong --repeats 7 --json "$out/pingpong.json" > "$out/pingpong.txt" 2>&1; echo "pingpong exit $?" >> "$out/summary.txt"
bench=($b/yeex bench --engine cuda --steps 50 --warmup 10 --repeats 5)
timeout 200 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --json "$out/bench_weak_512.json" > "$out/bench_weak_512.txt" 2>&1; echo "weak exit $? ($((SECONDS - t0)) s)" >> "$out/summary.txt"
for n in 1 4 8; do
  YEEX_STAGED_CHUNKS=$n timeout 40 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges host-staged > "$out/staged_chunks_$n.txt" 2>&1
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
