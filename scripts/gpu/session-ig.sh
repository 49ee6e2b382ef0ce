#!/usr/bin/env bash
# Twenty-sixth session, call 4 (4 x H200): coop's coefficient table in shared memory (yeex-s: a
# node's coefficients one shared load after its class byte, not an L1/L2 load) and the same with a
# long sweep's sent plane published after its first band (yeex-sd); yeex-base: the committed
# code. Every multi-GPU test (yeex-sd's code); coop on one GPU at
# 512^3 (each form's trial time logged), each build twice in turn; weak 512^3 a GPU on 1 and 4
# GPUs and strong 128^3 on 1 and 4 (400 steps x 9), each build.
#   BUILD_DIR=build/slim scripts/gpu/session-ig.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
run multi_gpu 150 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1
pack
forms_one_512 2 yeex-base yeex-s yeex-sd
for bin in yeex-base yeex-s yeex-sd; do
  run "weak_$bin" 90 env YEEX_COOP_TUNE_LOG=1 "$b/$bin" "${coop_weak4[@]}"
  run "small_$bin" 90 "$b/$bin" bench --engine cuda --warmup 50 --steps 400 --repeats 9 --exchanges coop --size 128 --counts 1,4
  pack
done
finish
