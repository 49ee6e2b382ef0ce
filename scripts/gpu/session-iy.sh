#!/usr/bin/env bash
# Twenty-eighth session, call 5 (4 x H200): the placement trials of engines built at once on one
# GPU take turns (a lock per device): 512^3 on two slabs of GPU 0 with the trials logged; then
# scripts/gpu-check.sh on the session's final code (FieldArenaKeepsTheBits now on 512 x 512 x 320,
# two slabs of GPU 0 in arenas among its cases).
#   BUILD_DIR=build/slim scripts/gpu/session-iy.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
box_deck box512 512 512 512 400
run two_slabs 120 env YEEX_FIELD_SLOT_LOG=1 "$b/yeex" run "$out/box512.toml" --engine cuda --gpus 1 --subdomains 2 \
  --exchange overlap --output "$out/two_slabs"
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
finish
grep -E "PASS|FAIL|passed|checksum" "$out/gpu-check/gpu-check.log" | head -20
