#!/usr/bin/env bash
# One device call (1 GPU), tenth session, third: the z-core fold with the folded planes spread
# through the plain kernel's grid (YEEX_EXP_FOLD=12: every 16th block plane at 512^3) and the
# y-core fold alone (=2, warps of a y PML row take the y path), against the build and the plain
# z fold (=4). Bits (forced fork), the cuda engine's gpu tests, 512^3 f32 twice, f64 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bp.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f YEEX_EXP_FOLD=12" "$f YEEX_EXP_FOLD=2"
fork_tests "fold" YEEX_EXP_FOLD 12 2
for rep in 1 2; do
  cpml_variants "$rep" fold12 YEEX_EXP_FOLD=12 fold2 YEEX_EXP_FOLD=2 fold4 YEEX_EXP_FOLD=4
done
for v in "" YEEX_EXP_FOLD=12 YEEX_EXP_FOLD=2; do
  run "cpml64_${v//[ =]/_}" 60 env $v "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
done
pack
