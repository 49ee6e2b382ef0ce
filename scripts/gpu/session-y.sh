#!/usr/bin/env bash
# One device call (1 GPU), sixth session, fifth: CPML 512^3 (10 cells on every face) with the shell
# stream, and with the x boxes cut to the faces' own nodes (YEEX_CPML_MARGINS: the nodes between a
# face and the aligned plain box go to the plain kernel), and with the x boxes' kernel at 32
# registers (yeex-x8, built by hand: kXBoxMinBlocks 8); PEC alongside; twice. Then the cuda-engine
# tests with margins. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-y.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
for round in a b; do
  run "pec_$round" 40 "$b/yeex" "${one[@]}" --size 512
  run "fork_$round" 40 "$b/yeex" "${one[@]}" --size 512 --cpml 10
  run "margins_$round" 40 env YEEX_CPML_MARGINS=1 "$b/yeex" "${one[@]}" --size 512 --cpml 10
  run "x8_$round" 40 "$b/yeex-x8" "${one[@]}" --size 512 --cpml 10
  run "x8margins_$round" 40 env YEEX_CPML_MARGINS=1 "$b/yeex-x8" "${one[@]}" --size 512 --cpml 10
  pack
done
run margins_f64 40 env YEEX_CPML_MARGINS=1 "$b/yeex" "${one[@]}" --size 512 --cpml 10 --precision f64
run margins_256 40 env YEEX_CPML_MARGINS=1 "$b/yeex" "${one[@]}" --size 256 --cpml 10
run fork_256 40 "$b/yeex" "${one[@]}" --size 256 --cpml 10
run tests_cuda_engine_margins 60 env YEEX_CPML_MARGINS=1 "$b/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_brief=1
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
