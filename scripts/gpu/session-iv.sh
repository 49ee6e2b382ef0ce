#!/usr/bin/env bash
# Twenty-eighth session, call 2 (4 x H200): the field arena and its placement trial
# (kernels/field_layout.hpp). The engine on one GPU with the trial (its times logged) and with the
# sessions 23-27 rounding's 32 MiB slots fixed, on the 268 M-cell decks, their quarters and 512^3
# in f32 and f64; then scripts/gpu-check.sh and the first part of issue 3's table (issue3_core).
#   BUILD_DIR=build/slim scripts/gpu/session-iv.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
placement_start
for c in "trial|YEEX_FIELD_SLOT_LOG=1" "s32|YEEX_FIELD_SLOT_MIB=32"; do
  env_case "${c%%|*}" "${c#*|}" tallq slab160 box512 cube640 tall
  run "box512_f64_${c%%|*}" 60 env "${c#*|}" "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 10 \
    --repeats 5 --steps 30 --deck "$out/box512.toml" --exchanges overlap --precision f64
  pack
done
run gpu_check 280 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
issue3_core
finish
grep -E "PASS|FAIL|passed|checksum" "$out/gpu-check/gpu-check.log" | head -20
