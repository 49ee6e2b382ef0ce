#!/usr/bin/env bash
# Eighteenth session, call 5 (4 GPUs): the graph-chain prototype
# (results/2026-11-26-session18/graph-chain/chain.cu, built as $BUILD_DIR/chain): the border-first
# step's chain issued per step with events and host barriers (copy engines, push kernels) against
# one CUDA graph per GPU per chunk ordered by monotonic flags, at 64^3, 128^3, 256^3 on 1, 2, 4 GPUs;
# then the graph with the copy engines (peer memcpy nodes) at 128^3.
#   BUILD_DIR=build/slim scripts/gpu/session-fi.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
run chain_64 60 "$b/chain" 4 64 64 64 400 9
run chain_128 60 "$b/chain" 4 128 128 128 400 9
run chain_256 90 "$b/chain" 4 256 256 256 200 5
run chain_128_graph_copy 60 "$b/chain" 4 128 128 128 400 9 graph-copy
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
cat "$out/summary.txt" "$out"/chain_*.txt
