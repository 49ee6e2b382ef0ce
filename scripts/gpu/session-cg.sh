#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: timelines of four half-steps (timing events around
# the launches only, YEEX_EXP_TIMELINE=200) of the CPML and PEC runs at 512^3 f32; the CPML run
# without the bulk stream's wait for the shells (YEEX_EXP_NOJOIN=1, timing only) and with the
# plain kernel enqueued before the shells (YEEX_EXP_PLAINFIRST=1), twice.
#   BUILD_DIR=build/slim scripts/gpu/session-cg.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
one[0]=$b/yeex-exp
cpml cpml_tl 512 f32 YEEX_EXP_TIMELINE=200
run pec_tl 60 env YEEX_EXP_TIMELINE=200 "${one[@]}" --exchanges overlap --size 512 --precision f32
cpml cpml_tl_first 512 f32 YEEX_EXP_TIMELINE=200 YEEX_EXP_PLAINFIRST=1
exp_twice nojoin YEEX_EXP_NOJOIN=1 first YEEX_EXP_PLAINFIRST=1
