#!/usr/bin/env bash
# Twenty-eighth session, call 1 (one H200): where the engine's arrays land, with the six field
# arrays and the class bytes in one allocation (the experiment's YEEX_FIELD_ARENA=UNIT_KIB:SKEW_KIB:
# array c at c x (its size rounded to UNIT + SKEW)), against separate allocations (the default 32
# MiB rounding, 0 and 1024). The engine on one GPU on the quarters of the 268 M-cell decks and
# 512^3, then the whole 268 M-cell decks for some; the arrays' addresses printed. YEEX_FIELD_ARENA
# and YEEX_FIELD_ADDRESSES were that call's build only (ff81e15 with
# results/2026-11-27-session28/arena-experiment.patch); a59dfcf made the arena the engine's own.
#   BUILD_DIR=build/slim scripts/gpu/session-iu.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
placement_start
tall_planes 4096 tall
a=YEEX_FIELD_ADDRESSES=1
cases=(
  "def|$a" "r1024|$a YEEX_ARRAY_ROUNDING_MIB=1024" "r0|$a YEEX_ARRAY_ROUNDING_MIB=0"
  "a2m|$a YEEX_FIELD_ARENA=2048:0" "a1g|$a YEEX_FIELD_ARENA=1048576:0" "a32m|$a YEEX_FIELD_ARENA=32768:0"
  "s1|$a YEEX_FIELD_ARENA=2048:1" "s4|$a YEEX_FIELD_ARENA=2048:4" "s64|$a YEEX_FIELD_ARENA=2048:64"
  "s512|$a YEEX_FIELD_ARENA=2048:512" "s1024|$a YEEX_FIELD_ARENA=2048:1024" "s2048|$a YEEX_FIELD_ARENA=2048:2048"
)
for c in "${cases[@]}"; do env_case "${c%%|*}" "${c#*|}" tallq slab160 box512; pack; done
for c in "${cases[@]:0:5}" "${cases[7]}" "${cases[10]}"; do env_case "${c%%|*}" "${c#*|}" tall cube640; pack; done
finish
