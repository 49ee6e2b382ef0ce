#!/usr/bin/env bash
# One device call (2 GPUs), fifth session: the CPML register caps as committed (x boxes MinBlocks
# 5 in float, y/z boxes 4): every gpu test, scripts/gpu/cpml-check.sh (the CPML gpu tests and the
# 512^3 PEC/CPML benchmark), the same in f64, block shapes 64x2 and 32x8 (YEEX_CUDA_BLOCK, every
# kernel), validate-check.sh.
#   BUILD_DIR=build/slim scripts/gpu/session-p.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 300 "$t" --gtest_color=no --gtest_brief=1; done
OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"
f64=("$b/yeex" bench --engine cuda --precision f64 --gpus 1 --counts 1 --size 512 --steps 50 --warmup 10 --repeats 5 --exchanges overlap)
run f64_pec 60 "${f64[@]}" --cpml 0
run f64_cpml 60 "${f64[@]}" --cpml 10
one=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
for shape in 64x2x1 32x8x1; do
  YEEX_CUDA_BLOCK=$shape run pec_$shape 60 "${one[@]}" --cpml 0
  YEEX_CUDA_BLOCK=$shape run cpml_$shape 60 "${one[@]}" --cpml 10
done
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
