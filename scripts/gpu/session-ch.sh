#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: the x boxes folded into the plain kernel, which then
# sweeps whole rows and sends the warps that hold x-face nodes down the CPML path
# (YEEX_EXP_FOLDX=1: uncapped, float 32 registers; 6 / 8: MinBlocks caps). Tests and bits first,
# then 512^3 f32 twice, f64 and 256^3 once.
#   BUILD_DIR=build/slim scripts/gpu/session-ch.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
exp_check foldx YEEX_EXP_FOLDX=1 foldx6 YEEX_EXP_FOLDX=6
exp_twice foldx1 YEEX_EXP_FOLDX=1 foldx8 YEEX_EXP_FOLDX=8
size_variant 64 512 f64 foldx1 YEEX_EXP_FOLDX=1
cpml foldx664 512 f64 YEEX_EXP_FOLDX=6
cpml foldx864 512 f64 YEEX_EXP_FOLDX=8
size_variant 256 256 f32 foldx1 YEEX_EXP_FOLDX=1
pack
