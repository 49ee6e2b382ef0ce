#!/usr/bin/env bash
# Twenty-seventh session, call 1 (4 x H200): where the multi-GPU step's fixed 20-40 us go. Weak
# scaling on a quarter of the 268 M-cell decks (256 x 256 x 1024 of the tall deck, 640 x 640 x 160
# of 640^3: their 4-GPU rows are the strong decks) against the strong rows in the same call; the
# quarter (and 512^3 under the engine and coop) on one GPU alone and on all four GPUs at once as
# independent processes (what four busy GPUs cost one of them, without any exchange), the clocks
# and power logged meanwhile.
#   BUILD_DIR=build/slim scripts/gpu/session-in.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
tall_deck
sed -e 's/^cells = \[256, 256, 4096\]/cells = [256, 256, 1024]/' "$out/tall.toml" > "$out/tallq.toml"
box_deck slab160 640 640 160 2000
run strong_tall 150 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges overlap,graph --json "$out/strong_tall.json"
run weak_tallq 150 "${bench[@]}" --deck "$out/tallq.toml" --scaling weak --counts 1,4 --exchanges host-staged,overlap,graph --json "$out/weak_tallq.json"
run strong_640 150 "${bench[@]}" --size 640 --scaling strong --counts 1,4 --exchanges overlap,graph --json "$out/strong_640.json"
run weak_slab160 150 "${bench[@]}" --deck "$out/slab160.toml" --scaling weak --counts 1,4 --exchanges overlap,graph --json "$out/weak_slab160.json"
pack
one1=(bench --engine cuda --gpus 1 --counts 1 --steps 50 --warmup 10 --repeats 5)
alone_and_together tallq "${one1[@]}" --deck "$out/tallq.toml" --exchanges overlap
alone_and_together e512 "${one1[@]}" --size 512 --exchanges overlap
alone_and_together c512 "${one1[@]}" --size 512 --exchanges coop
alone_and_together tallq_again "${one1[@]}" --deck "$out/tallq.toml" --exchanges overlap
finish
for f in "$out"/*_smi.txt; do echo "== ${f##*/}"; awk -F, 'NR > 1 {sm[$1] += $2; p[$1] += $4; n[$1]++} END {for (g in n) printf "gpu %s sm %.0f MHz power %.0f W (%d samples)\n", g, sm[g] / n[g], p[g] / n[g], n[g]}' "$f"; done
