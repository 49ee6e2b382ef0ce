#!/usr/bin/env bash
# Twenty-fifth session, call 9 (all GPUs): coop's pair block chosen by size (1024 x 1 up to 64 K
# nodes a multiprocessor, 512 x 3 above). test_multi_gpu (new: both shapes against one node and the
# engine); coop on one GPU on 128 x 128 x 32, x 64 and 128^3 (the default choice against the forced
# 512 blocks), and 256^3, 512^3; strong 128^3 and weak 512^3 on 1-2 GPUs, coop and graph.
#   BUILD_DIR=build/slim scripts/gpu/session-hz.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run multi_gpu 200 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1
env_bin yeex-512 YEEX_COOP_PAIR_BLOCK=512
for nz in 32 64 128; do box_deck "z$nz" 128 128 "$nz" 20000; done
for rep in 1 2; do
  for nz in 32 64 128; do
    for bin in yeex yeex-512; do
      run "z${nz}_${bin}_$rep" 60 "$b/$bin" bench --deck "$out/z$nz.toml" --engine cuda --gpus 1 --counts 1 --exchanges coop \
        --steps 400 --warmup 50 --repeats 9
    done
  done
done
run one256 60 "${one[@]}" --exchanges coop --size 256
run one512 60 "${one[@]}" --exchanges coop --size 512
pack
all_gpus yeex
run strong128 120 "$b/yeex" bench --engine cuda --counts 1,2 --steps 400 --warmup 50 --repeats 9 --exchanges coop,graph --size 128
run weak512 120 "${x[@]}" --exchanges coop,graph --scaling weak --size 512
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "PASSED|FAILED" "$out/multi_gpu.txt" | head
grep -H "coop \| - \|graph " "$out"/z*.txt "$out"/one*.txt "$out"/strong128.txt "$out"/weak512.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12}' | sort
cat "$out/summary.txt"
