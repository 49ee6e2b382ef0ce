#!/usr/bin/env bash
# One device call (1 GPU), tenth session, fourth: every shell box of a sweep in one launch
# (YEEX_EXP_LIST=1: 40 registers, =2: 48; blocks of 128 threads, each box's path by its axes),
# against the build. Bits (forced fork), the cuda engine's gpu tests, 512^3 f32 three times, f64.
#   BUILD_DIR=build/slim scripts/gpu/session-bq.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f YEEX_EXP_LIST=1" "$f YEEX_EXP_LIST=2"
fork_tests "list" YEEX_EXP_LIST 1 2
for rep in 1 2 3; do cpml_variants "$rep" list1 YEEX_EXP_LIST=1 list2 YEEX_EXP_LIST=2; done
for v in "" YEEX_EXP_LIST=1 YEEX_EXP_LIST=2; do
  run "cpml64_${v//[ =]/_}" 60 env $v "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
done
pack
