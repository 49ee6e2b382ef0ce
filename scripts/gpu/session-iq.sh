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
coop_tested_start
tall_deck
sed -e '/^\[\[source\]\]/,/^\[output\]/{/^\[output\]/!d}' "$out/tall.toml" > "$out/tall_nosource.toml"
box_deck box512 512 512 512 400
box_deck box512_nosource 512 512 512 400 nosource
for deck in box512 box512_nosource tall tall_nosource; do
  for steps in 50 200; do engine_deck "engine_${deck}_$steps" "$deck" $steps; done
  pack
done
finish
