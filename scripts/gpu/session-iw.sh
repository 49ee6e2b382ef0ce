#!/usr/bin/env bash
# Twenty-eighth session, call 3 (4 x H200): the rest of issue 3's table with the field arena's
# placement trial (issue3_rest, TABLE_LARGE=1: strong 640^3 and 256 x 256 x 4096, peer access off,
# GPU pairs), then weak scaling on a GPU's quarter of each 268 M-cell deck (what the 4-GPU step
# costs against one GPU on the same slab) for host-staged, overlap and graph, the trial's choices
# logged.
#   BUILD_DIR=build/slim scripts/gpu/session-iw.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
TABLE_LARGE=1 issue3_rest
quarter_decks
for deck in slab160 tallq; do
  run "weak_$deck" 120 env YEEX_FIELD_SLOT_LOG=1 "${bench[@]}" --deck "$out/$deck.toml" --scaling weak --counts 1,4 \
    --exchanges host-staged,overlap,graph --json "$out/weak_$deck.json" --markdown "$out/weak_$deck.md"
  pack
done
finish
