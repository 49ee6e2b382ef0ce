#!/usr/bin/env bash
# Twenty-sixth session, call 8 (4 x H200): coop's bands by their tiles per block. With node pairs
# in blocks of 512 (396 blocks on an H200) band_planes finds no multiple of 99 planes near 64, so
# a band of 64 planes gives 41.4 tiles a block at 512^3 (some blocks 42, the rest 41) and 10.3 on
# 256 x 256 planes (the tall deck: 11 against 10). YEEX_COOP_BAND = 64 (the default), 99, 198 on
# one GPU at 512^3; 64, 99, 198, 297 on the tall deck (256 x 256 x 4096) on one GPU; then weak
# 512^3 a GPU on 1 and 4 GPUs at 64 and 99. Call 6's build.
#   BUILD_DIR=build/slim scripts/gpu/session-ik.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
tall_deck
for rep in 1 2; do
  for band in 64 99 198; do run "one_${band}_$rep" 60 env YEEX_COOP_BAND=$band YEEX_COOP_TUNE_LOG=1 "$b/yeex" "${coop_one_512[@]}"; done
done
pack
for band in 64 99 198 297; do
  run "tall_$band" 90 env YEEX_COOP_BAND=$band "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 10 --steps 30 --repeats 5 --exchanges coop --deck "$out/tall.toml"
done
pack
for band in 64 99; do
  run "weak_$band" 90 env YEEX_COOP_BAND=$band "$b/yeex" "${coop_weak4[@]}"
done
finish
