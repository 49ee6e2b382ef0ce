#!/usr/bin/env bash
# Twenty-seventh session, call 4 (4 x H200): coop's gpu tests on the committed 8-byte pushes; does
# the engine's speed depend on what the fields hold? Call 3 ran the 256^2 x 4096 deck 1.4 % slower
# at 200 steps a repeat than at 50 (the wave then fills more of it), the 1024- and 256-plane decks
# alike at both. The engine on one GPU: the bench box at 512^3 and the tall deck (4096 planes)
# with their dipole and without (every field zero throughout), 50 and 200 steps a repeat.
#   BUILD_DIR=build/slim scripts/gpu/session-iq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
coop_tests
pack
tall_deck
sed -e '/^\[\[source\]\]/,/^\[output\]/{/^\[output\]/!d}' "$out/tall.toml" > "$out/tall_nosource.toml"
box_deck box512 512 512 512 400
box_deck box512_nosource 512 512 512 400 nosource
for deck in box512 box512_nosource tall tall_nosource; do
  for steps in 50 200; do
    run "engine_${deck}_$steps" 90 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 10 --repeats 5 --steps $steps \
      --deck "$out/$deck.toml" --exchanges overlap
  done
  pack
done
finish
