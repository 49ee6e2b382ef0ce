#!/usr/bin/env bash
# One device call (1 GPU), eighth session, fifth: the build as committed (lean CPML shell kernels,
# the boxes of an axis paired, x boxes at MinBlocks 6 in float and 5 in double). The bits of a
# 160 x 120 x 72 CPML deck (120 steps) from the host engine, this build and yeex-main (the
# seventh session's build); every gpu test; `yeex validate` on one GPU (validate-check.sh);
# cpml-check.sh's benchmark; 512^3 PEC and CPML in f32 twice more, f64 once.
#   BUILD_DIR=build/slim scripts/gpu/session-aq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
deck=$out/deck.toml
sed -e 's/^cells = \[48, 48, 48\].*/cells = [160, 120, 72]/' -e 's/^steps = 300.*/steps = 120/' inputs/dipole_free_space.toml > "$deck"
for p in f32 f64; do
  for e in "yeex host" "yeex cuda" "yeex-main cuda"; do
    set -- $e
    "$b/$1" run "$deck" --engine "$2" --precision $p --output "$out/o" 2>&1 | grep checksum | sed "s/^/$1 $2 $p /" >> "$out/bits.txt"
    rm -rf "$out/o"
  done
done
gpu_tests; pack
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh; pack
OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"; pack
for rep in 1 2; do cpml_baseline $rep; done
pec pec_f64 512 f64
cpml base_f64 512 f64
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
