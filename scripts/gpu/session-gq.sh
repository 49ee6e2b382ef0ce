#!/usr/bin/env bash
# Twenty-second session, call 2 (4 GPUs): the cuda engine's arrays start where one ghost plane puts
# plane 0, modulo 2 MiB (plane_lead in kernels/cuda/cuda_engine.cu), at any halo depth. The gpu
# tests of the engine and of several GPUs (the bits); weak 512^3 a GPU on 1 and 4 for b2r (R = 2)
# with the lead and without (yeex-nolead: YEEX_PLANE_LEAD=0), in f32 twice and f64 once, graph and
# overlap beside in f32; strong 512^3 b2r with and without.
#   BUILD_DIR=build/slim scripts/gpu/session-gq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
gpu_test_pair test_cuda_engine test_multi_gpu test_gpu_cli
pack
env_bin yeex-nolead YEEX_PLANE_LEAD=0
weak=(bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 1,4 --halo-depth 2)
for rep in 1 2; do
  run "weak512_lead_$rep" 150 "$b/yeex" "${weak[@]}" --exchanges b2r,graph,overlap --json "$out/weak_512_lead_$rep.json"
  run "weak512_nolead_$rep" 150 "$b/yeex-nolead" "${weak[@]}" --exchanges b2r
  pack
done
run weak512f64_lead 150 "$b/yeex" "${weak[@]}" --exchanges b2r --precision f64 --steps 30
run weak512f64_nolead 150 "$b/yeex-nolead" "${weak[@]}" --exchanges b2r --precision f64 --steps 30
run strong512_lead 150 "$b/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling strong --size 512 --counts 1,4 --halo-depth 2 --exchanges b2r,graph
run strong512_nolead 150 "$b/yeex-nolead" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling strong --size 512 --counts 1,4 --halo-depth 2 --exchanges b2r
pushing_report
grep -h "PASSED\|FAILED" "$out"/test_*.txt
