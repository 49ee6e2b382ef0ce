#!/usr/bin/env bash
# Twenty-seventh session, call 7 (4 x H200), the session's last device seconds: more allocation
# roundings (YEEX_ARRAY_ROUNDING_MIB) for a placement rule that would suit every deck: the engine
# on one GPU on the tall deck's quarter (256 x 256 x 1024), 640 x 640 x 160, and 512^3 in f32 and
# f64, under 32 (default), 0, 1024, 48, 96, 160 MiB.
#   BUILD_DIR=build/slim scripts/gpu/session-it.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
quarter_decks
box_deck box512 512 512 512 400
for mib in 32 0 1024 48 96 160; do
  rounding_case $mib tallq slab160 box512
  run "box512_f64_r$mib" 60 env YEEX_ARRAY_ROUNDING_MIB=$mib "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 10 \
    --repeats 5 --steps 30 --deck "$out/box512.toml" --exchanges overlap --precision f64
  pack
done
finish
