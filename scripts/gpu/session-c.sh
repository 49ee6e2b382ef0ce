#!/usr/bin/env bash
# One device call (4 GPUs): coop after its relaxed flag polling (bitwise tests, strong 128^3 and
# 256^3, weak 512^3/GPU) and b2r at R = 4 weak.
#   scripts/gpu/session-c.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
run coop_tests 90 $b/tests/gpu/test_multi_gpu --gtest_brief=1 --gtest_color=no --gtest_filter='*coop*'
run coop_strong_128 40 "${bench[@]}" --scaling strong --size 128 --counts 1,2,4 --exchanges coop,p2p
run coop_strong_256 40 "${bench[@]}" --scaling strong --size 256 --counts 4 --exchanges coop
YEEX_COOP_BLOCKS_PER_SM=2 run coop_strong_128_2bpsm 30 "${bench[@]}" --scaling strong --size 128 --counts 4 --exchanges coop
run coop_weak_512 120 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges coop
run b2r4_weak_512 120 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges b2r --halo-depth 4
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
