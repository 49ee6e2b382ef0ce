#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: the x boxes folded into the plain kernel, which then
# sweeps whole rows and sends the warps that hold x-face nodes down the CPML path
# (YEEX_EXP_FOLDX=1: uncapped, float 32 registers; 6 / 8: MinBlocks caps). Tests and bits first,
# then 512^3 f32 twice, f64 and 256^3 once.
#   BUILD_DIR=build/slim scripts/gpu/session-ch.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
exp_start foldx YEEX_EXP_FOLDX=1
run cuda_tests_fork_foldx 150 env YEEX_CPML_FORK_NODES=0 YEEX_EXP_FOLDX=1 "$b/tests/gpu/test_cuda_engine_exp" --gtest_color=no
exp_bits foldx6 YEEX_EXP_FOLDX=6
pack
for rep in 1 2; do
  one[0]=$b/yeex-exp
  cpml_variants "$rep" foldx1 YEEX_EXP_FOLDX=1 foldx8 YEEX_EXP_FOLDX=8
done
size_variant 64 512 f64 foldx1 YEEX_EXP_FOLDX=1
cpml foldx664 512 f64 YEEX_EXP_FOLDX=6
cpml foldx864 512 f64 YEEX_EXP_FOLDX=8
size_variant 256 256 f32 foldx1 YEEX_EXP_FOLDX=1
pack
