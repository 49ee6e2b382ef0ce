#!/usr/bin/env bash
# One device call (1 GPU), sixth session, sixth: CPML 512^3 with the shell kernels' grids capped
# at N blocks per SM (YEEX_CPML_SHELL_BLOCKS; each block then loops over the box's tiles), so that
# the shells share the SMs with the plain kernel for longer; PEC alongside; the cuda-engine tests
# with a cap. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-z.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
one=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
run tests_cuda_engine_cap2 60 env YEEX_CPML_SHELL_BLOCKS=2 "$b/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_brief=1
for round in a b; do
  run "pec_$round" 40 "$b/yeex" "${one[@]}" --size 512
  for cap in 0 1 2 3 4 6; do run "cap${cap}_$round" 40 env YEEX_CPML_SHELL_BLOCKS=$cap "$b/yeex" "${one[@]}" --size 512 --cpml 10; done
  pack
done
for cap in 0 2 4; do run "cap${cap}_256" 40 env YEEX_CPML_SHELL_BLOCKS=$cap "$b/yeex" "${one[@]}" --size 256 --cpml 10; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
