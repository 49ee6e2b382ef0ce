#!/usr/bin/env bash
# One device call (4 GPUs), fifth session, third call: experiments.
#   coop tile shape: 32x8 tiles of 256 threads (the build), 32x4 of 128 (yeex-t128, 16 blocks/SM),
#     64x4 of 256 (yeex-t64x4): one GPU at 512^3 and weak 512^3/GPU on 4;
#   CPML at 512^3 on one GPU: the shell boxes on a stream of their own beside the plain box
#     (YEEX_CPML_CONCURRENT=1), x boxes 16 nodes wide (YEEX_CPML_ALIGN=16), both; PEC and the
#     default between them; the CPML gpu tests with the concurrent shells.
#   BUILD_DIR=build/slim scripts/gpu/session-l.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5)
weak=(bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 4 --exchanges coop)
for v in yeex yeex-t128 yeex-t64x4; do
  run coop1_$v 60 $b/$v "${one[@]}" --exchanges coop
  run weak_$v 60 $b/$v "${weak[@]}"
done
run strong128_t128 60 $b/yeex-t128 bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 4 --exchanges coop
run cpml_pec 60 $b/yeex "${one[@]}" --exchanges overlap --cpml 0
run cpml_default 60 $b/yeex "${one[@]}" --exchanges overlap --cpml 10
YEEX_CPML_CONCURRENT=1 run cpml_concurrent 60 $b/yeex "${one[@]}" --exchanges overlap --cpml 10
YEEX_CPML_ALIGN=16 run cpml_align16 60 $b/yeex "${one[@]}" --exchanges overlap --cpml 10
YEEX_CPML_ALIGN=16 YEEX_CPML_CONCURRENT=1 run cpml_both 60 $b/yeex "${one[@]}" --exchanges overlap --cpml 10
run cpml_default_again 60 $b/yeex "${one[@]}" --exchanges overlap --cpml 10
YEEX_CPML_CONCURRENT=1 run tests_cpml_concurrent_engine 120 $b/tests/gpu/test_cuda_engine --gtest_color=no --gtest_filter='*Cpml*'
YEEX_CPML_CONCURRENT=1 run tests_cpml_concurrent_multi 200 $b/tests/gpu/test_multi_gpu --gtest_color=no --gtest_filter='*Cpml*'
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
