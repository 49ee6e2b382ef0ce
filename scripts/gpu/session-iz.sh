#!/usr/bin/env bash
# Twenty-eighth session, call 6 (one H200): what a step costs that does not shrink with the slab.
# The engine on one GPU (placement trial on, its times logged) on 640^2 planes x 40, 80, 160, 320,
# 640 and on the tall deck's 256^2 planes x 256, 512, 1024, 2048, 4096: ms a step against planes
# gives a cost a plane and a fixed cost a step.
#   BUILD_DIR=build/slim scripts/gpu/session-iz.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
tall_deck
decks=()
for nz in 40 80 160 320 640; do box_deck "wide$nz" 640 640 $nz 2000; decks+=("wide$nz"); done
for nz in 256 512 1024 2048; do tall_planes $nz; decks+=("tall$nz"); done
env_case trial YEEX_FIELD_SLOT_LOG=1 "${decks[@]}" tall
finish
