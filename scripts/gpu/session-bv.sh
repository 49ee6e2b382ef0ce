#!/usr/bin/env bash
# One device call (1 GPU), tenth session, tenth call: shells moved to the plain kernel's tail
# (YEEX_EXP_TAIL; code: results/2026-11-24-session10/patches/shell-experiments.patch): the plain
# kernel records a programmatic event that fires once all its blocks have started, and the shell
# stream waits for it before =1 the strips, =2 the strips and the y cores, =3 the strips and the
# y and z cores. Bits (forced fork), the cuda engine's gpu tests, 512^3 f32 three times, f64 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bv.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f YEEX_EXP_TAIL=1" "$f YEEX_EXP_TAIL=2" "$f YEEX_EXP_TAIL=3"
fork_tests "tail" YEEX_EXP_TAIL 1 3
for rep in 1 2 3; do cpml_variants "$rep" tail1 YEEX_EXP_TAIL=1 tail2 YEEX_EXP_TAIL=2 tail3 YEEX_EXP_TAIL=3; done
for v in "" YEEX_EXP_TAIL=1 YEEX_EXP_TAIL=2; do
  run "cpml64_${v//[ =]/_}" 60 env $v "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
done
pack
