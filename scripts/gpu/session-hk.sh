#!/usr/bin/env bash
# Twenty-fourth session, call 2 (all GPUs): drawn tails. An experiment build (yeex; yeex-base is the
# committed code): the blocks of coop's persistent grid draw the last YEEX_COOP_DRAW_TAIL tiles a
# block of each band from a counter instead of taking them by turns (0: by turns, as before), so
# that faster blocks take more and all reach the band's grid.sync() together. Its coop tests with
# bands forced on the tests' small grids and tails drawn; coop on one GPU at 512^3 (f32 twice, f64
# once) for tails of 0-8 tiles a block against yeex-base; weak 512^3 on 1 and all GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-hk.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run drawn_tests 200 env YEEX_COOP_BAND=2 YEEX_COOP_DRAW_TAIL=2 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Coop*:*coop*'
run drawn_tests_1 200 env YEEX_COOP_DRAW_TAIL=1 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Coop*:*coop*'
pack
knob_versus t YEEX_COOP_DRAW_TAIL 2 0 1 2 4 8
pack
args=("${coop_one_512[@]}")
run one_f64_base 60 "$b/yeex-base" "${args[@]}" --precision f64
for tail in 0 2 4; do run "one_f64_t$tail" 60 env YEEX_COOP_DRAW_TAIL=$tail "$b/yeex" "${args[@]}" --precision f64; done
pack
weak_versus t YEEX_COOP_DRAW_TAIL 2 4
tail -n 3 "$out/drawn_tests.txt" "$out/drawn_tests_1.txt"
grep -H "coop \|engine\| - " "$out"/one*.txt "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $6, $7, $8, $12, $13}'
