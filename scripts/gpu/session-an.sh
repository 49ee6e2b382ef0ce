#!/usr/bin/env bash
# One device call (1 GPU), eighth session, second: knobs of the leaner CPML build at 512^3 f32
# against PEC, twice each: the x boxes' kernel at 40 registers (YEEX_EXP_XMB6), the two shell boxes
# of an axis in one launch (YEEX_EXP_PAIRS), both, both in line (no shell stream), both with
# shell blocks of 256 x 1. OUT_DIR.tar.gz is refreshed after every step.
# (The YEEX_EXP_* knobs lived in the experiment build: results/2026-11-24-session8/patches/.)
#   BUILD_DIR=build/slim scripts/gpu/session-an.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do
  cpml_variants $rep xmb6 YEEX_EXP_XMB6=1 pairs YEEX_EXP_PAIRS=1 both "YEEX_EXP_XMB6=1 YEEX_EXP_PAIRS=1"
done
cpml both_inline 512 f32 YEEX_EXP_XMB6=1 YEEX_EXP_PAIRS=1 YEEX_CPML_FORK_NODES=1000000000000
cpml both_256 512 f32 YEEX_EXP_XMB6=1 YEEX_EXP_PAIRS=1 YEEX_CPML_BLOCK=256x1x1
cpml both_f64 512 f64 YEEX_EXP_XMB6=1 YEEX_EXP_PAIRS=1
cpml base_f64 512 f64
pec pec_f64 512 f64
pec pec_3 512 f32
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
