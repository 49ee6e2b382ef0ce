#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: with whole rows in the plain kernel, the z and y cores
# over whole rows too, their warps that meet an x face taking the x path, so that the x strips go
# (YEEX_EXP_COREROWS=1: 46-48 registers; 2: capped at 40, no spills). Tests and bits first, then
# 512^3 f32 twice and 256^3 once.
#   BUILD_DIR=build/slim scripts/gpu/session-cj.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
exp_check corerows YEEX_EXP_COREROWS=2 corerows1 YEEX_EXP_COREROWS=1
exp_twice rows1 YEEX_EXP_COREROWS=1 rows2 YEEX_EXP_COREROWS=2
size_variant 256 256 f32 rows2 YEEX_EXP_COREROWS=2
cpml rows1256 256 f32 YEEX_EXP_COREROWS=1
pack
