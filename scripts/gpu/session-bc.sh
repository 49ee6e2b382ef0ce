#!/usr/bin/env bash
# One device call (1 GPU), ninth session, seventh: the committed build (the sweep kernels' class
# coefficients from the engine's padded phase table, PhaseCoefficients; CellCoefficients and coop
# unchanged) against yeex-head (main before it): scripts/gpu-check.sh (every gpu test, the default
# deck, the benchmark at 128^3-512^3 f32 and 512^3 f64); the deck's bits; PEC and CPML 512^3 f32
# in turn, twice, f64 and 256^3 once; coop on one GPU; `yeex validate` on one GPU and with coop;
# cpml-check.sh's benchmark.
#   BUILD_DIR=build/slim scripts/gpu/session-bc.sh OUT_DIR
exec "$(dirname "$0")/candidate-check.sh" "${1:?usage: $0 OUT_DIR}" yeex-head --sizes
