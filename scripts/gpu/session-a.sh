#!/usr/bin/env bash
# One device call (4 GPUs): every gpu test, the ping-pong latency, weak scaling 512^3/GPU for every
# backend, host-staged piece counts. Output under OUT_DIR.
#   scripts/gpu/session-a.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
OUT=$out run gpu-tests 260 scripts/gpu/gpu-tests.sh $b
grep -E "PASSED|FAILED|SKIPPED" "$out/gpu-tests.txt" | tee -a "$out/summary.txt"
run pingpong 60 $b/yeex-p2p --test pingpong --repeats 7 --json "$out/pingpong.json"
run bench_weak_512 200 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --json "$out/bench_weak_512.json"
for n in 1 4 8; do
  YEEX_STAGED_CHUNKS=$n run "staged_chunks_$n" 40 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges host-staged
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
