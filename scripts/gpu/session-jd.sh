#!/usr/bin/env bash
# Twenty-ninth session, call 2 (2 x H200: no 4-GPU machine was lent): the border split that gives
# the E plane e-1 to the border lane, so that the bulk E sweep follows the bulk H sweep without a
# cross-lane wait (yeex), against the session's first build (yeex-old). test_multi_gpu (every
# backend's bits on 1 and 2 GPUs), then strong scaling on 1 and all GPUs: the tall deck and 640^3
# (overlap, graph, host-staged, nccl, b2r at R = 2), 256^3 and 128^3 (400 steps x 9), twice with
# each build in turn.
#   BUILD_DIR=build/slim scripts/gpu/session-jd.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_test_pair test_multi_gpu
pack
tall_deck
box_deck cube640 640 640 640 2000
four=(--scaling strong --counts 1,"$(nvidia-smi -L | wc -l)" --exchanges overlap,graph,host-staged,nccl,b2r --halo-depth 2)
small=(--steps 400 --warmup 50 --repeats 9)
bins_rows 2 "yeex-old yeex" tall --deck "$out/tall.toml" "${four[@]}"
bins_rows 2 "yeex-old yeex" cube640 --deck "$out/cube640.toml" "${four[@]}"
bins_rows 2 "yeex-old yeex" s256 --size 256 "${four[@]}" "${small[@]}"
bins_rows 2 "yeex-old yeex" s128 --size 128 "${four[@]}" "${small[@]}"
finish
