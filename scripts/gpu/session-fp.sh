#!/usr/bin/env bash
# Nineteenth session, call 2 (4 GPUs): sources added inside the plain E sweep (YEEX_SWEPT_SOURCES,
# default on) against their own kernel, with programmatic dependent launch (YEEX_PDL) off and on:
# the gpu tests (SweptSourcesKeepTheBits new), the engine on one GPU over 640 x 640 x NZ, strong
# 640^3 and 128^3 on 1 and 4 GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-fp.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
gpus_and_tests
box_deck box160 640 640 160 400
box_deck box640 640 640 640 400
for rep in 1 2; do
  for v in "0 0" "1 0" "1 1"; do
    set -- $v
    for d in box160 box640; do box_run "${d}_s$1p$2_$rep" "$d" YEEX_SWEPT_SOURCES=$1 YEEX_PDL=$2 -- --gpus 1; done
  done
done
pack
for v in "0 0" "1 0" "1 1"; do
  set -- $v
  run "strong_640_s$1p$2" 200 env YEEX_SWEPT_SOURCES=$1 YEEX_PDL=$2 "${bench[@]}" --scaling strong --size 640 --counts 1,4 \
    --exchanges host-staged,overlap,graph --json "$out/strong_640_s$1p$2.json"
  run "strong_128_s$1p$2" 90 env YEEX_SWEPT_SOURCES=$1 YEEX_PDL=$2 "$b/yeex" bench --engine cuda --steps 400 --warmup 50 \
    --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges overlap,graph,b2r,nccl --halo-depth 2
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED\|not run" "$out"/test_*.txt | sort | uniq -c
grep -H "stepping" "$out"/box*.txt | sed "s|$out/||"
for f in "$out"/strong_*.txt; do echo "== $(basename "$f")"; grep -v "^#" "$f" | grep -v "^scaling"; done
