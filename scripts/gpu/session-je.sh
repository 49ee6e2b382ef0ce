#!/usr/bin/env bash
# Twenty-ninth session, call 3 (2 x H200): the sources folded into the E sweep that updates their
# node (Engine::fold_sources). test_cuda_engine (FoldedSourcesKeepTheBits,
# FoldedSourcesAreAddedByTheSweep) and test_multi_gpu (every backend's bits, the fold on); then
# strong scaling on 1 and all GPUs, the fold on (yeex) and off (yeex-nofold: YEEX_FOLD_SOURCES=0)
# in turn, twice: the tall deck (overlap, graph, host-staged) and 128^3 (overlap, graph, b2r at
# R = 2; 400 steps x 9).
#   BUILD_DIR=build/slim scripts/gpu/session-je.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
engine_tests_start
env_bin yeex-nofold YEEX_FOLD_SOURCES=0
tall_deck
all_counts=(--scaling strong --counts 1,"$(nvidia-smi -L | wc -l)")
bins_rows 2 "yeex-nofold yeex" tall --deck "$out/tall.toml" "${all_counts[@]}" --exchanges overlap,graph,host-staged
bins_rows 2 "yeex-nofold yeex" s128 --size 128 "${all_counts[@]}" --exchanges overlap,graph,b2r --halo-depth 2 \
  --steps 400 --warmup 50 --repeats 9
finish
