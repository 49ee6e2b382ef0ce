#!/usr/bin/env bash
# Twenty-fourth session, call 7 (one GPU): two forms of the node-pair kernel head to head in one
# build (yeex-ab): call 6's (any width, the pair's second store guarded; YEEX_CUDA_PAIRS=1) and call
# 5's (float only, even widths, no guard; YEEX_CUDA_PAIRS=5), and one node a thread
# (YEEX_CUDA_PAIRS=0); the engine on one GPU at 512^3 three times in turn and 640^3 twice, f32.
#   BUILD_DIR=build/slim scripts/gpu/session-hp.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
eng=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
for rep in 1 2 3; do
  for pairs in 0 1 5; do run "p${pairs}_512_$rep" 60 env YEEX_CUDA_PAIRS=$pairs "$b/yeex-ab" "${eng[@]}" --size 512; done
done
for rep in 1 2; do
  for pairs in 0 1 5; do run "p${pairs}_640_$rep" 60 env YEEX_CUDA_PAIRS=$pairs "$b/yeex-ab" "${eng[@]}" --size 640; done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H " - " "$out"/p*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $6, $7, $13}'
