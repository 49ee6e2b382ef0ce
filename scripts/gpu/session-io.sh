#!/usr/bin/env bash
# Twenty-seventh session, call 2 (4 x H200): what coupling costs coop. $b/yeex-prof is coop with
# its leader timing each phase (sweep, wait for the neighbour, grid.sync(), the bands' syncs: the
# experiment patch results/2026-11-27-session27/coop-profile.patch), run on one GPU and weak on 4;
# the committed build's coop weak on 4 against the four GPUs running coop alone at once
# (independent processes). Then call 1's quarter of the tall deck, its cell size fixed: weak
# 256 x 256 x 1024 a GPU against the strong tall deck, and on one GPU alone and on four at once.
#   BUILD_DIR=build/slim scripts/gpu/session-io.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run prof_weak4 120 "$b/yeex-prof" "${coop_weak4[@]}"
run weak4 120 "$b/yeex" "${coop_weak4[@]}"
alone_and_together c512 "${coop_one_512[@]}"
run prof_weak4_again 120 "$b/yeex-prof" "${coop_weak4[@]}"
run weak4_again 120 "$b/yeex" "${coop_weak4[@]}"
tall_planes 1024 tallq
run strong_tall 150 "${bench[@]}" --deck "$out/tall.toml" --scaling strong --counts 1,4 --exchanges overlap,graph --json "$out/strong_tall.json"
run weak_tallq 150 "${bench[@]}" --deck "$out/tallq.toml" --scaling weak --counts 1,4 --exchanges host-staged,overlap,graph --json "$out/weak_tallq.json"
pack
one1=(bench --engine cuda --gpus 1 --counts 1 --steps 50 --warmup 10 --repeats 5)
alone_and_together tallq "${one1[@]}" --deck "$out/tallq.toml" --exchanges overlap
finish
grep -h "coop profile" "$out"/prof_*.txt
