#!/usr/bin/env bash
# Twentieth session, call 8 (4 GPUs): the build to commit (coop's sweep sources; the border-first
# schedule as before): scripts/gpu-check.sh (every gpu test binary, the default deck's checksums,
# the short benchmark), strong 128^3 on 1, 2, 4 GPUs every backend (400 steps x 9, twice), weak
# 512^3 per GPU on 1 and 4 (coop, overlap, graph, b2r), strong 640^3 on 1 and 4 (host-staged,
# overlap, graph).
#   BUILD_DIR=build/slim scripts/gpu/session-gd.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
check_and_strong128
run weak_512 200 "${bench[@]}" --scaling weak --size 512 --counts 1,4 --exchanges coop,overlap,graph,b2r --halo-depth 2 --json "$out/weak_512.json"; pack
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges host-staged,overlap,graph --json "$out/strong_640.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -E "PASS|FAIL|PASSED|FAILED|checksum" "$out/gpu-check/gpu-check.log" | head -20
for f in "$out"/strong_*.txt "$out"/weak_*.txt; do echo "== $(basename "$f")"; grep -v "^#" "$f" | grep -v "^scaling" | awk '$5 != 2'; done
