#!/usr/bin/env bash
# One device call (1 GPU), eighth session, first: the CPML shell kernels in fewer instructions
# (32-bit coordinates, psi in pairs, profiles in padded entries) against yeex-main (the seventh
# session's build), PEC and CPML at 512^3 in turn, twice; then knobs of this build: the x boxes'
# kernel at 40 registers in float (YEEX_EXP_XMB6), 64-node x boxes (YEEX_CPML_ALIGN=64), shell
# blocks of 64 x 2; f64 and 256^3 for both builds. OUT_DIR.tar.gz is refreshed after every step.
# (The YEEX_EXP_* knobs lived in the experiment build: results/2026-11-24-session8/patches/.)
#   BUILD_DIR=build/slim scripts/gpu/session-am.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
for rep in 1 2; do versus $rep; pack; done
cpml xmb6 512 f32 YEEX_EXP_XMB6=1
cpml align64 512 f32 YEEX_CPML_ALIGN=64
cpml block64x2 512 f32 YEEX_CPML_BLOCK=64x2x1
pack
for bin in yeex yeex-main; do
  one[0]=$b/$bin
  pec "${bin}_pec_f64" 512 f64
  cpml "${bin}_cpml_f64" 512 f64
  cpml "${bin}_cpml_256" 256 f32
done
one[0]=$b/yeex
pec yeex_pec_3 512 f32
cpml yeex_cpml_3 512 f32
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
