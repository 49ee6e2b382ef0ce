#!/usr/bin/env bash
# Nineteenth session, call 3 (4 GPUs): call 2 again after its fix (the cursor's step compared as
# one step): the gpu tests; strong 128^3 and 640^3 on 1 and 4 GPUs with sources added in the sweep
# (YEEX_SWEPT_SOURCES) and programmatic dependent launch (YEEX_PDL) each off and on.
#   BUILD_DIR=build/slim scripts/gpu/session-fq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
gpus_and_tests
for v in "0 0" "1 0" "0 1" "1 1"; do
  set -- $v
  run "strong_128_s$1p$2" 90 env YEEX_SWEPT_SOURCES=$1 YEEX_PDL=$2 "$b/yeex" bench --engine cuda --steps 400 --warmup 50 \
    --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges overlap,graph,coop,b2r --halo-depth 2
  pack
done
for v in "0 0" "1 0" "0 1" "1 1"; do
  set -- $v
  run "strong_640_s$1p$2" 200 env YEEX_SWEPT_SOURCES=$1 YEEX_PDL=$2 "${bench[@]}" --scaling strong --size 640 --counts 1,4 \
    --exchanges host-staged,overlap,graph --json "$out/strong_640_s$1p$2.json"
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED\|not run" "$out"/test_*.txt | sort | uniq -c
for f in "$out"/strong_*.txt; do echo "== $(basename "$f")"; grep -v "^#" "$f" | grep -v "^scaling"; done
