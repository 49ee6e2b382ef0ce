#!/usr/bin/env bash
# One device call (1 GPU), ninth session, eighteenth: after the review (sweep computes the split
# once, its shell count from cpml_plain_box): every gpu test, the CPML deck's bits against
# yeex-head, PEC and CPML 512^3 f32 against yeex-head, cpml-check.sh's benchmark.
#   BUILD_DIR=build/slim scripts/gpu/session-bm.sh OUT_DIR
exec "$(dirname "$0")/session-be.sh" "${1:?usage: $0 OUT_DIR}"
