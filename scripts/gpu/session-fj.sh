#!/usr/bin/env bash
# Eighteenth session, call 6 (4 GPUs): the graph backend (overlap's schedule ordered by counters
# on the GPUs, each GPU's steps recorded once and replayed as a CUDA graph). Every gpu test binary
# (the graph contract cases on 1-4 GPUs, R = 1..4, CPML, thin slabs, replay blocks of 1 and 7);
# then graph against overlap, nccl, coop and b2r: strong 64^3, 128^3 and 256^3 on 1, 2, 4 GPUs
# (400 steps x 9; b2r R = 2), weak 512^3 per GPU and strong 512^3 (graph and overlap).
#   BUILD_DIR=build/slim scripts/gpu/session-fj.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
graph_rows
run weak_512 90 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges overlap,graph --json "$out/weak_512.json"
run strong_512 90 "${bench[@]}" --scaling strong --size 512 --counts 1,2,4 --exchanges overlap,graph --json "$out/strong_512.json"
graph_report
