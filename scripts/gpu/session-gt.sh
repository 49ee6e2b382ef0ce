#!/usr/bin/env bash
# Twenty-second session, call 5 (4 GPUs): the cuda engine's arrays in a frame of kFramePlanes = 4
# planes a side whatever the halo depth (frame_pad in kernels/cuda/cuda_engine.cu), so that b2r's
# slabs (R = 2) lie in memory as the engine's (R = 1) do. The gpu tests of the engine and of
# several GPUs (the bits); weak 512^3 a GPU on 1 and 4 for b2r, graph and overlap with the frame
# (yeex) and without (yeex-noframe: YEEX_PLANE_FRAME=0), twice in turn; b2r in f64 either way;
# strong 640^3 for graph, overlap and host-staged either way.
#   BUILD_DIR=build/slim scripts/gpu/session-gt.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_test_pair test_cuda_engine test_multi_gpu
pack
env_bin yeex-noframe YEEX_PLANE_FRAME=0
weak=(bench --engine cuda --warmup 10 --repeats 5 --scaling weak --size 512 --counts 1,4 --halo-depth 2)
for rep in 1 2; do
  for bin in yeex yeex-noframe; do
    run "weak512_${bin}_$rep" 150 "$b/$bin" "${weak[@]}" --steps 50 --exchanges b2r,graph,overlap
  done
  pack
done
for bin in yeex yeex-noframe; do
  run "weak512f64_$bin" 150 "$b/$bin" "${weak[@]}" --steps 30 --exchanges b2r --precision f64
  run "strong640_$bin" 150 "$b/$bin" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling strong --size 640 --counts 1,4 --exchanges graph,overlap,host-staged
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/test_*.txt
grep -H " 1 \| 4 " "$out"/weak*.txt "$out"/strong*.txt | grep -v "#" | sed "s|$out/||" | cut -c1-150
