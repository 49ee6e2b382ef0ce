#!/usr/bin/env bash
# Twenty-first session, call 6 (4 GPUs): the build to commit. graph takes pushing sweeps where a
# plane holds at most 32768 nodes (kPushingPlaneNodes), else the border split. scripts/gpu-check.sh
# (every gpu test, the default deck's checksums, a short benchmark), strong 128^3 on 1, 2, 4 GPUs
# for every backend, twice (check_and_strong128); then graph with the split forced (yeex-split) at
# 128^3, and strong 256^3 and 640^3 (graph, overlap) on 1 and 4.
#   BUILD_DIR=build/slim scripts/gpu/session-gm.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
check_and_strong128
env_bin yeex-split YEEX_PUSHING_SWEEPS=0
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,4)
run strong128_split 100 "$b/yeex-split" "${long[@]}" --size 128 --exchanges graph
run strong256 100 "$b/yeex" "${long[@]}" --size 256 --exchanges graph,overlap
run strong640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges graph,overlap --json "$out/strong_640.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -E "PASS|FAIL|passed|checksum" "$out/gpu-check/gpu-check.log" | head -20
grep -H "strong " "$out"/strong*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $7, $12, $13}'
python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["rows"]: print(r.get("exchange"), r.get("devices"), r.get("exchange_choices"))' "$out/strong_128_1.json" 2>&1 | head -30
