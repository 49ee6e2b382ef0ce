#!/usr/bin/env bash
# Eighteenth session, call 9 (4 GPUs): B+2R at 128^3 (the 2-D FDTD blog's 2 M cells, where its
# B+2R R = 2 reaches 35 % on 4 GPUs) through `yeex run` of the bench box on 128^3 (lib.sh's
# quarter_deck, 20000 steps, no output): the engine on one GPU, then 4 GPUs under graph R = 1, 2,
# 4, b2r R = 2, 4, overlap and coop; each run's Gcells/s from run.json, three runs each.
#   BUILD_DIR=build/slim scripts/gpu/session-fm.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
quarter_deck 128 box128
rate() { "$b/yeex" run "$out/box128.toml" --engine cuda --quiet --json --output "$out/o" "$@" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["performance"]["gcells_per_s"])'; rm -rf "$out/o"; }
for rep in 1 2 3; do
  echo "engine 1 GPU: $(rate --gpus 1)" >> "$out/rates.txt"
  for c in "graph 1" "graph 2" "graph 4" "b2r 2" "b2r 4" "overlap 1" "coop 1"; do
    set -- $c
    echo "$1 R=$2 4 GPUs: $(rate --gpus 4 --exchange $1 --halo-depth $2)" >> "$out/rates.txt"
  done
done
cat "$out/rates.txt"
