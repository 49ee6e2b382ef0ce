#!/usr/bin/env bash
# One device call (1 GPU), eighth session, fifth: the build as committed (lean CPML shell kernels,
# the boxes of an axis paired, x boxes at MinBlocks 6 in float and 5 in double). The bits of a
# 160 x 120 x 72 CPML deck (120 steps) from the host engine, this build and yeex-main (the
# seventh session's build); every gpu test; `yeex validate` on one GPU (validate-check.sh);
# cpml-check.sh's benchmark; 512^3 PEC and CPML in f32 twice more, f64 once. Call 8 ran it
# again on the final build (the pairs side by side along their axis, x boxes in 32 x 2 blocks).
#   BUILD_DIR=build/slim scripts/gpu/session-aq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
cpml_deck
for p in f32 f64; do
  deck_bits "yeex host" yeex host $p
  deck_bits "yeex cuda" yeex cuda $p
  deck_bits "yeex-main cuda" yeex-main cuda $p
done
gpu_tests; pack
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh; pack
OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"; pack
for rep in 1 2; do cpml_baseline $rep; done
pec pec_f64 512 f64
cpml base_f64 512 f64
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
