#!/usr/bin/env bash
# Twenty-second session, call 7 (all GPUs): why graph's pushing sweeps run slow on large planes. An
# experiment build (not kept: YEEX_EXP_FENCE) drops the system-scope fences of the pushing blocks:
# 1 the release fence before each block's arrival (arrive_last), 2 the acquire fence after each
# block's wait (await_counters), 3 both; timing only (without them nothing orders the planes).
# Strong 640^3, graph with pushing sweeps forced (YEEX_PUSHING_SWEEPS=1) under each, and the split.
#   BUILD_DIR=build/slim scripts/gpu/session-gv.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
n=$(nvidia-smi -L | wc -l)
args=(bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling strong --size 640 --counts "$n" --exchanges graph)
run strong640_split 60 env YEEX_PUSHING_SWEEPS=0 "$b/yeex" "${args[@]}"
for x in 0 1 2 3; do run "strong640_fence$x" 60 env YEEX_PUSHING_SWEEPS=1 YEEX_EXP_FENCE=$x "$b/yeex" "${args[@]}"; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "graph\| - " "$out"/strong*.txt | grep -v "#" | sed "s|$out/||" | cut -c1-140
