#!/usr/bin/env bash
# Twenty-eighth session, call 7 (one H200): why graph's one-GPU row runs 0.2-0.5 % behind the
# engine's T1. The engine, overlap and graph on one GPU at 512^3 and on the tall deck's quarter,
# with programmatic dependent launches (the default) and without (YEEX_PDL=0), the field slots
# fixed at 32 MiB (no trial, so the rows share one placement rule).
#   BUILD_DIR=build/slim scripts/gpu/session-ja.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
placement_start
for pdl in 1 0; do
  for deck in box512 tallq; do
    run "${deck}_pdl$pdl" 90 env YEEX_PDL=$pdl YEEX_FIELD_SLOT_MIB=32 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 \
      --warmup 10 --repeats 5 --steps 64 --deck "$out/$deck.toml" --exchanges overlap,graph
  done
done
finish
