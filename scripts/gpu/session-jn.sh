#!/usr/bin/env bash
# Thirtieth session, call 7 (2 x H200), the final build: the pushing kernel's two forms as one
# template (the pair form's PTX unchanged, the one-node form rearranged) and
# GraphPushingSweepsKeepTheBits with YEEX_CUDA_PAIRS=0 (the one-node form): test_cuda_engine and
# test_multi_gpu (engine_tests_start), then graph's strong 128^3-192^3 rows on 1 and 2 GPUs.
#   BUILD_DIR=build/x scripts/gpu/session-jn.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
engine_tests_start
for size in 128 160 192; do
  run "graph_$size" 120 "${bench[@]}" --scaling strong --counts 1,2 --exchanges graph,overlap --size $size
done
finish
