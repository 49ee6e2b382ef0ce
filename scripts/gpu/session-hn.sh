#!/usr/bin/env bash
# Twenty-fourth session, call 5 (all GPUs): node pairs in the cuda engine's plain float sweep. In
# the experiment build (yeex; yeex-base is the committed code) YEEX_CUDA_PAIRS=B launches
# yee_pair_sweep_kernel (two neighbouring nodes a thread, 8-byte loads and stores; B blocks of 128
# a multiprocessor in __launch_bounds__) instead of yee_sweep_kernel where a run has no CPML (0:
# as before). The engine's and several GPUs' tests with pairs; the default deck's checksum in f32
# with and without; the engine on one GPU at 512^3, 640^3, 256^3 in f32 for B = 0, 4-12, twice in
# turn at 512^3; weak 512^3 on 1 and all GPUs (overlap, graph) with the best guess.
#   BUILD_DIR=build/slim scripts/gpu/session-hn.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for pairs in 0 8; do
  run "tests_engine_p$pairs" 120 env YEEX_CUDA_PAIRS=$pairs "$b/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_brief=1
done
run tests_multi_p8 200 env YEEX_CUDA_PAIRS=8 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Contract*:*Bitwise*:*bitwise*:*Overlap*:*Graph*'
pack
for bin_pairs in "yeex-base 0" "yeex 0" "yeex 8" "yeex 12"; do
  set -- $bin_pairs
  for p in f32 f64; do
    env YEEX_CUDA_PAIRS=$2 "$b/$1" run --engine cuda --precision $p --output "$out/o" 2>&1 | grep checksum | sed "s/^/$1 pairs=$2 $p /" >> "$out/bits.txt"
    env YEEX_CUDA_PAIRS=$2 "$b/$1" run --engine cuda --gpus 1 --subdomains 3 --exchange overlap --precision $p --output "$out/o" 2>&1 | grep checksum | sed "s/^/$1 pairs=$2 3 slabs $p /" >> "$out/bits.txt"
    rm -rf "$out/o"
  done
done
eng=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
for rep in 1 2; do
  run "base512_$rep" 60 "$b/yeex-base" "${eng[@]:1}" --size 512
  for pairs in 0 4 6 8 10 12; do run "p${pairs}_512_$rep" 60 env YEEX_CUDA_PAIRS=$pairs "${eng[@]}" --size 512; done
done
pack
for size in 640 256; do
  run "base${size}" 60 "$b/yeex-base" "${eng[@]:1}" --size $size
  for pairs in 0 8 12; do run "p${pairs}_$size" 60 env YEEX_CUDA_PAIRS=$pairs "${eng[@]}" --size $size; done
done
pack
weak=(bench --engine cuda --warmup 10 --steps 50 --repeats 5 --exchanges overlap,graph --scaling weak --size 512 --counts 1,"$(nvidia-smi -L | wc -l)")
run weak_base 120 "$b/yeex-base" "${weak[@]}"
run weak_p8 120 env YEEX_CUDA_PAIRS=8 "$b/yeex" "${weak[@]}"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/bits.txt"
grep -hE "PASSED|FAILED" "$out"/tests_*.txt
grep -H "overlap \|graph \| - " "$out"/base*.txt "$out"/p*.txt "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12, $13}'
