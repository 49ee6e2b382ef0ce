#!/usr/bin/env bash
# Quick check of the coop backend: its bitwise tests, then weak 512^3/GPU and strong 128^3 on 1 and 4 GPUs.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/cuda}
export NCCL_NVLS_ENABLE=0
"$build/tests/gpu/test_multi_gpu" --gtest_brief=1 --gtest_filter='*coop*:*Coop*' 2>&1 | tail -3
bench=("$build/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --counts 1,4 --exchanges coop)
"${bench[@]}" --scaling weak --size 512 | tail -2
for b in 0 2; do YEEX_COOP_BLOCKS_PER_SM=$b "${bench[@]}" --scaling strong --size 128 256 | tail -4; done
