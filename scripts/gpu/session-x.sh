#!/usr/bin/env bash
# One device call (4 GPUs), sixth session, fourth: the CPML shell boxes on a stream of their own at
# a priority above the bulk's (cuda_engine.cu, sweep): the cuda-engine tests and the multi-GPU CPML
# tests, then 512^3 and 256^3 with 10-cell CPML on every face on one GPU, forked (the default
# there) against in line (YEEX_CPML_FORK_NODES very large), f32 twice and f64, and the PEC box;
# weak CPML 512^3/GPU on 4 GPUs (overlap, b2r). OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-x.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
run tests_cuda_engine 60 "$b/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_brief=1
run tests_multi_cpml 120 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Cpml*'; pack
one=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
inline=(env YEEX_CPML_FORK_NODES=1000000000000)
for round in a b; do
  run "c512_fork_$round" 60 "${one[@]}" --size 512 --cpml 10
  run "c512_inline_$round" 60 "${inline[@]}" "${one[@]}" --size 512 --cpml 10
  run "pec512_$round" 60 "${one[@]}" --size 512; pack
done
run c512_fork_f64 60 "${one[@]}" --size 512 --cpml 10 --precision f64
run c512_inline_f64 60 "${inline[@]}" "${one[@]}" --size 512 --cpml 10 --precision f64
run pec512_f64 60 "${one[@]}" --size 512 --precision f64; pack
run c256_fork 60 "${one[@]}" --size 256 --cpml 10
run c256_inline 60 "${inline[@]}" "${one[@]}" --size 256 --cpml 10; pack
run w512_cpml_fork 80 "$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 4 --cpml 10 --exchanges overlap,b2r --halo-depth 2
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
