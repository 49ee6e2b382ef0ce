#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: the final build (env_switch for the CPML tuning
# switches): every gpu test on one GPU, then CPML 512^3 f32 with whole rows (the default), with
# YEEX_CPML_WHOLE_ROWS=0 and with YEEX_CPML_CORES=0, PEC beside them.
#   BUILD_DIR=build/slim scripts/gpu/session-cl.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
gpu_tests
pack
cpml_variants 1 rows0 YEEX_CPML_WHOLE_ROWS=0 cores0 YEEX_CPML_CORES=0
