#!/usr/bin/env bash
# One device call (4 GPUs), fourth session, fourth call: coop with bands (a grid.sync() per 32
# planes of a sweep): its bitwise tests (bands of 32, and of 1 plane through YEEX_COOP_BAND), its
# one-GPU sweep at 512^3 against bands of 0 (off), 16 and 64, and the coop rows of the scaling
# tables. Everything also lands in OUT_DIR.tar.gz.
#   BUILD_DIR=build/slim scripts/gpu/session-g.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
tests=($b/tests/gpu/test_multi_gpu --gtest_brief=1 --gtest_color=no --gtest_filter='*coop*')
run coop_tests 90 "${tests[@]}"
YEEX_COOP_BAND=1 run coop_tests_band1 90 "${tests[@]}"
one=(--engine cuda --steps 50 --warmup 10 --repeats 5 --gpus 1 --counts 1 --size 512 --exchanges coop)
for band in default 0 16 64; do
  if [[ $band == default ]]; then run coop1_band_default 40 $b/yeex bench "${one[@]}"
  else YEEX_COOP_BAND=$band run coop1_band$band 40 $b/yeex bench "${one[@]}"; fi
done
run weak_512_coop 60 "${bench[@]}" --scaling weak --size 512 --counts 2,4 --exchanges coop --json "$out/weak_512_coop.json"
run strong_coop 90 "${bench[@]}" --scaling strong --size 128 256 512 --counts 2,4 --exchanges coop,overlap --json "$out/strong_coop.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
