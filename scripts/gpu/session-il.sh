#!/usr/bin/env bash
# Twenty-sixth session, call 9 (4 x H200): coop's bands chosen by span and even share
# (band_planes: about 64 planes of 512^2 nodes, within a factor of two the planes the blocks share
# most evenly). The coop gpu tests; coop on one GPU at 512^3 (99 planes now); the tall deck
# (297) on 1 and 4 GPUs; strong 640^3 (82) on 1 and 4 GPUs against YEEX_COOP_BAND=64; weak
# 512^3 a GPU on 1 and 4; one GPU at 512^3 with CPML in f32 (58) and f64 (99) and PEC in f64
# (99), each against YEEX_COOP_BAND=64.
#   BUILD_DIR=build/slim scripts/gpu/session-il.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
tall_deck
coop_tests
run one_512 60 env YEEX_COOP_TUNE_LOG=1 "$b/yeex" "${coop_one_512[@]}"
run tall 120 "$b/yeex" bench --engine cuda --counts 1,4 --warmup 10 --steps 30 --repeats 5 --exchanges coop --deck "$out/tall.toml"
pack
for band in "" 64; do
  run "strong_640_$band" 120 env ${band:+YEEX_COOP_BAND=$band} "$b/yeex" bench --engine cuda --counts 1,4 --warmup 10 --steps 30 --repeats 5 --exchanges coop --size 640
done
run weak_512 90 "$b/yeex" "${coop_weak4[@]}"
pack
for band in "" 64; do one_512_cases "$band" cpml32 cpml64 pec64; done
finish
