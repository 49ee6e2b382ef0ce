#!/usr/bin/env bash
# Twenty-ninth session, call 1 (4 x H200): what the source's kernel costs a step. Strong scaling on
# 1 and 4 GPUs of the 268 M-cell decks (256 x 256 x 4096 and 640^3), with and without their dipole,
# for overlap, graph and host-staged, twice; then overlap on the tall deck without the source and
# without dependent launches (YEEX_PDL=0).
#   BUILD_DIR=build/slim scripts/gpu/session-jc.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
tall_deck
box_deck cube640 640 640 640 2000
source_pairs 2 overlap,graph,host-staged tall cube640
run tall_ns_nopdl 150 env YEEX_PDL=0 "${bench[@]}" --deck "$out/tall_ns.toml" --scaling strong --counts 1,4 --exchanges overlap
finish
