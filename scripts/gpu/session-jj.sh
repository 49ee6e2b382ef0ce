#!/usr/bin/env bash
# Thirtieth session, call 2 (2 x H200): graph's pair pushing sweeps with the pushed plane's tiles
# spread over the first S plane slots (YEEX_PUSH_SPREAD=S, an experiment), so that their stores
# cross the link while the tiles beside them sweep: test_multi_gpu's graph cases under S = 4 and
# 64 (the bits), then strong on 1 and 2 GPUs, twice, with pushing forced: 640^3 at S = 1, 4, 16,
# 64, the 640 x 640 x 320 slab deck at S = 1, 16, 256^3 at S = 1, 4, 16; the split beside each.
#   BUILD_DIR=build/slim scripts/gpu/session-jj.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for spread in 4 64; do
  run "graph_tests_S$spread" 120 env YEEX_PUSH_SPREAD=$spread "$b/tests/gpu/test_multi_gpu" --gtest_color=no \
    --gtest_brief=1 --gtest_filter='*Graph*:*Push*:*Thin*'
done
pack
box_deck slab320 640 640 320 100
spreads() {  # spreads NAME "S..." ARGS...: graph split, then pushing forced at each spread S
  local name=$1 list=$2 s
  shift 2
  run "split_$name" 150 "${bench[@]}" --scaling strong --counts 1,2 --exchanges graph "$@"
  for s in $list; do
    run "push_${name}_S$s" 150 env YEEX_PUSHING_SWEEPS=1 YEEX_PUSH_SPREAD="$s" "${bench[@]}" --scaling strong \
      --counts 1,2 --exchanges graph "$@"
  done
}
for rep in 1 2; do
  spreads "640_$rep" "1 4 16 64" --size 640
  spreads "slab320_$rep" "1 16" --deck "$out/slab320.toml"
  spreads "256_$rep" "1 4 16" --size 256
  pack
done
finish
