#!/usr/bin/env bash
# One device call (1 GPU), tenth session, second: the z cores (YEEX_EXP_FOLD=4) or the y and z
# cores (=6) folded into the plain kernel, whose blocks (z) and warps (y) in a PML slab take the
# CPML path of that axis (code: results/2026-11-24-session10/patches/shell-experiments.patch);
# YEEX_EXP_FOLD_BLOCKS 8 (32 registers) or 6 (40). The CPML deck's bits under each (forced fork), the cuda engine's gpu tests, then PEC, the build and
# the folds at 512^3 f32, twice; f64 once.
#   BUILD_DIR=build/slim scripts/gpu/session-bo.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f YEEX_EXP_FOLD=4" "$f YEEX_EXP_FOLD=6" "$f YEEX_EXP_FOLD=6 YEEX_EXP_FOLD_BLOCKS=6"
fork_tests "fold" YEEX_EXP_FOLD 4 6
for rep in 1 2; do
  cpml_variants "$rep" fold4 YEEX_EXP_FOLD=4 fold4b6 "YEEX_EXP_FOLD=4 YEEX_EXP_FOLD_BLOCKS=6" \
    fold6 YEEX_EXP_FOLD=6 fold6b6 "YEEX_EXP_FOLD=6 YEEX_EXP_FOLD_BLOCKS=6"
done
for v in "" YEEX_EXP_FOLD=4 "YEEX_EXP_FOLD=6 YEEX_EXP_FOLD_BLOCKS=6"; do
  run "cpml64_${v//[ =]/_}" 60 env $v "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
done
pack
