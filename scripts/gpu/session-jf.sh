#!/usr/bin/env bash
# Twenty-ninth session, call 4 (every GPU of the machine it gets): scripts/gpu-check.sh on the
# session's final code (the sources folded into graph's pushing sweeps too); then strong 128^3 on
# 1 and all GPUs (400 steps x 9) for graph, overlap and coop with the sources folded (yeex) and not
# (yeex-nofold), twice; with 4 GPUs, issue 3's strong rows of the tall deck and 640^3, every backend.
#   BUILD_DIR=build/slim scripts/gpu/session-jf.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
checked_start
env_bin yeex-nofold YEEX_FOLD_SOURCES=0
gpus=$(nvidia-smi -L | wc -l)
bins_rows 2 "yeex-nofold yeex" s128 --size 128 --scaling strong --counts 1,"$gpus" --exchanges graph,overlap,coop \
  --steps 400 --warmup 50 --repeats 9
if ((gpus == 4)); then
  tall_deck
  run strong_tall 200 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges $all \
    --halo-depth 2 --json "$out/strong_tall.json" --markdown "$out/strong_tall.md"
  pack
  run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges $all --halo-depth 2 \
    --json "$out/strong_640.json" --markdown "$out/strong_640.md"
fi
finish
grep -E "PASS|FAIL|passed|checksum" "$out/gpu-check/gpu-check.log" | head -20
