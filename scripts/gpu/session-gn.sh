#!/usr/bin/env bash
# Twenty-first session, call 7 (4 GPUs): pushing sweeps with the push beside them. On large planes
# the sweep's first blocks only signal their own GPU that the border plane is swept, and a push
# kernel on the border stream (8 blocks a run, waiting for that signal) copies it into the
# neighbour and signals it: one kernel a sweep on the bulk stream, no stores across the link from
# the sweep. test_multi_gpu's graph and thin-slab cases (bits); then this build (default: beside
# above 32768 nodes a plane), yeex-in (YEEX_PUSHING_SWEEPS=1: the sweep pushes) and yeex-split:
# weak on the 640 x 640 x 160 slab deck (1, 2, 4), strong 640^3 (1, 4; with overlap), strong
# 256^3 (1, 4), and 128^3 with YEEX_PUSHING_SWEEPS=2 (beside) against the default.
#   BUILD_DIR=build/slim scripts/gpu/session-gn.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
slab_start graph
run coop_tests_graph 90 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*raph*:*Thin*'; pack
env_bin yeex-split YEEX_PUSHING_SWEEPS=0
env_bin yeex-in YEEX_PUSHING_SWEEPS=1
env_bin yeex-beside YEEX_PUSHING_SWEEPS=2
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --counts 1,4 --exchanges graph)
for bin in yeex yeex-split yeex-in; do run "weak160_$bin" 150 "$b/$bin" "${bench[@]:1}" "${weak[@]}"; done
pack
run strong640_yeex 150 "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges graph,overlap
run strong640_yeex-split 150 "$b/yeex-split" "${bench[@]:1}" --scaling strong --size 640 --counts 1,4 --exchanges graph
for bin in yeex yeex-split; do run "strong256_$bin" 100 "$b/$bin" "${long[@]}" --size 256; done
for bin in yeex yeex-beside; do run "strong128_$bin" 100 "$b/$bin" "${long[@]}" --size 128; done
run weak160_yeex_2 150 "$b/yeex" "${bench[@]:1}" "${weak[@]}"
pushing_report
