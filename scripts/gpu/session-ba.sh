#!/usr/bin/env bash
# One device call (1 GPU), ninth session, fifth: the build with the class coefficients in 16-byte
# loads (phase_coefficients, in the engine's sweep kernels and coop's persistent kernel):
# scripts/gpu-check.sh (every gpu test, the default deck, the benchmark at 128^3-512^3 in f32 and
# 512^3 in f64); the deck's bits against yeex-prev (calls 1-3's experiment build, knobs off); PEC
# and CPML 512^3 f32 against yeex-prev in turn, twice; coop on one GPU against yeex-prev;
# `yeex validate` on one GPU (validate-check.sh) and with coop; cpml-check.sh's benchmark.
#   BUILD_DIR=build/slim scripts/gpu/session-ba.sh OUT_DIR   (as it ran: the steps inline)
exec "$(dirname "$0")/candidate-check.sh" "${1:?usage: $0 OUT_DIR}" yeex-prev --coop-cpml
