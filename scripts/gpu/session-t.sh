#!/usr/bin/env bash
# One device call (4 GPUs), fifth session: coop with tiles handed out in chunks of 2, 4 or 8
# consecutive tiles (one atomic per chunk; yeex-chunkN, built by hand, no bands) against the
# build (static tiles, bands of 64): the variant's multi-GPU bitwise tests (chunks of 4), one GPU
# at 512^3, weak 512^3/GPU on 4 GPUs, strong 128^3 on 4 GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-t.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges coop)
weak=(bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 4 --exchanges coop)
for v in yeex yeex-chunk4 yeex-chunk2 yeex-chunk8; do run "one_$v" 40 $b/$v "${one[@]}"; done; pack
for v in yeex yeex-chunk4; do run "weak_$v" 40 $b/$v "${weak[@]}"; done; pack
run tests_chunk4 120 $b/test_multi_gpu-chunk4 --gtest_color=no --gtest_brief=1 --gtest_filter='*coop*:*Coop*'; pack
for v in yeex yeex-chunk4; do run "strong128_$v" 40 $b/$v bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 4 --exchanges coop; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
