#!/usr/bin/env bash
# One device call (4 GPUs), sixth session, last: the final build's gpu tests, `yeex validate` on
# GPUs (validate-check.sh: 1 GPU, then p2p and coop over 4), the CPML performance check (512^3, one
# GPU) and weak CPML 512^3/GPU, b2r (R = 2) strong 128^3 again. OUT_DIR.tar.gz is refreshed after
# every step.
#   BUILD_DIR=build/slim scripts/gpu/session-final6.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 120 "$t" --gtest_color=no --gtest_brief=1; done; pack
OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"; pack
run w512_cpml 80 "$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 4 --cpml 10 --exchanges overlap,b2r,nccl --halo-depth 2; pack
run strong_128_b2r 60 "$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 4 --exchanges b2r,overlap,coop --halo-depth 2; pack
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
