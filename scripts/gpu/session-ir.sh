#!/usr/bin/env bash
# Twenty-seventh session, call 5 (4 x H200): the engine on one GPU runs the tall deck's 256^2 planes
# 2.6 % faster a plane in 4096 of them than in 1024 or 256 (calls 2-4; not what the fields hold:
# call 4), and 640^2 planes 0.9 % faster in 640 than in 160 (call 1): where the arrays land, as
# field_layout.hpp's rounding found at 512^3? The engine on one GPU on the four decks (the strong
# decks and a GPU's quarter of them) under YEEX_ARRAY_ROUNDING_MIB = 32 (the default), 0, 64, 128,
# 256, 512, 1024.
#   BUILD_DIR=build/slim scripts/gpu/session-ir.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
quarter_decks
box_deck cube640 640 640 640 2000
for mib in 32 0 64 128 256 512 1024; do
  rounding_case $mib tallq tall slab160 cube640
  pack
done
finish
