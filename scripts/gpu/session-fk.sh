#!/usr/bin/env bash
# Eighteenth session, call 7 (4 GPUs): the graph backend with its graphs at the captured priorities and the push kernel signalling from its last block (overlap's schedule ordered by counters
# on the GPUs, each GPU's steps recorded once and replayed as a CUDA graph). Every gpu test binary
# (the graph contract cases on 1-4 GPUs, R = 1..4, CPML, thin slabs, replay blocks of 1 and 7);
# then graph against overlap, nccl, coop and b2r: strong 64^3, 128^3 and 256^3 on 1, 2, 4 GPUs
# (400 steps x 9; b2r R = 2), weak 512^3 per GPU and strong 512^3 (graph, overlap, nccl); 128^3 on 4 GPUs twice more.
#   BUILD_DIR=build/slim scripts/gpu/session-fk.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
graph_rows
for rep in 2 3; do run "strong_128_rep$rep" 60 "${long[@]}" --size 128 --counts 4 --exchanges overlap,coop,graph --json "$out/strong_128_rep$rep.json"; done
run weak_512 90 "${bench[@]}" --scaling weak --size 512 --counts 1,2,4 --exchanges overlap,nccl,graph --json "$out/weak_512.json"
run strong_512 90 "${bench[@]}" --scaling strong --size 512 --counts 1,2,4 --exchanges overlap,nccl,graph --json "$out/strong_512.json"
graph_report
