#!/usr/bin/env bash
# One device call (1 GPU), ninth session, thirteenth: the single-axis cores (yeex-exp,
# patches/cpml-cores.patch) at MinBlocks 4 (40 registers, the patch's), 6 and 8 (32 registers, no
# spills: YEEX_EXP_CORE_MB); the deck's bits at 8; 512^3 f32 against PEC, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-bi.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
for p in f32 f64; do deck_bits "[exp cores mb8]" yeex-exp cuda $p YEEX_CPML_CORES=1 YEEX_EXP_CORE_MB=8; done
one[0]=$b/yeex-exp
for rep in 1 2; do cpml_variants "$rep" cores YEEX_CPML_CORES=1 cores_mb8 "YEEX_CPML_CORES=1 YEEX_EXP_CORE_MB=8"; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
