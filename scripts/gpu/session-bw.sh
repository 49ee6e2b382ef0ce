#!/usr/bin/env bash
# One device call (1 GPU, an H100), tenth session: the build with 64 x 2 shell blocks (yeex)
# against the one before (yeex-head, 128 x 1): PEC and CPML 512^3 f32 in turn, three times; f64
# and 256^3 once; the CPML deck's bits of both.
#   BUILD_DIR=build/slim scripts/gpu/session-bw.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
bits_versus yeex-head
for rep in 1 2 3; do versus $rep yeex-head; done
versus_sizes yeex-head
pack
