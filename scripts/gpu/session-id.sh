#!/usr/bin/env bash
# Twenty-sixth session, call 1 (4 x H200): where coop's weak 512^3 row loses its 1.6 % against its
# own one-GPU row. The experiment's knob YEEX_COOP_PUBLISH: 0 (the committed code: every thread of
# a border tile fences its peer stores at system scope, the block counts the tile, the last tile
# publishes), 1 (thread 0 fences once, after the block's barrier), 2 (a banded sweep's border
# tiles store without fence, barrier or count; the leader publishes after the first band's
# grid.sync()). The coop gpu tests under 1 and 2 (bands of 1 and 5 planes included), then coop's
# weak 512^3 a GPU on 1 and 4 GPUs under 0, 2, 1, 0, 2.
#   BUILD_DIR=build/slim scripts/gpu/session-id.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for mode in 2 1; do
  run "coop_tests_$mode" 120 env YEEX_COOP_PUBLISH=$mode "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Coop*'
done
pack
rep=0
for mode in 0 2 1 0 2; do
  rep=$((rep + 1))
  run "weak_${mode}_$rep" 90 env YEEX_COOP_PUBLISH=$mode "$b/yeex" "${coop_weak4[@]}"
  pack
done
finish
