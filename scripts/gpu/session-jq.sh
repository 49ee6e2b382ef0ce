#!/usr/bin/env bash
# Thirtieth session, call 8 (2 x H200): do two slabs a GPU hide each other's kernel boundaries on
# the 4-GPU quarter's shape? `yeex run` under overlap, 400 steps, three rounds: the 640 x 640 x 320
# deck on 2 GPUs as 2 slabs (each GPU 160 planes, as 640^3 on 4) and as 4 (two of 80 a GPU); 640^3
# on 2 GPUs as 2 and 4 slabs; the 640 x 640 x 160 deck on one GPU as 1 and 2 slabs.
#   BUILD_DIR=build/x scripts/gpu/session-jq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
box_deck slab160 640 640 160 400
box_deck slab320 640 640 320 400
box_deck cube640 640 640 640 400
for rep in 1 2 3; do
  for slabs in 1 2; do box_run "slab160_s${slabs}_$rep" slab160 -- --gpus 1 --subdomains $slabs --exchange overlap; done
  for deck in slab320 cube640; do
    for slabs in 2 4; do box_run "${deck}_s${slabs}_$rep" "$deck" -- --gpus 2 --subdomains $slabs --exchange overlap; done
  done
  pack
done
grep -H "stepping" "$out"/*_s*.txt | sed "s|$out/||" | sort
cat "$out/summary.txt"
