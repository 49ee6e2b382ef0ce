#!/usr/bin/env bash
# Fourteenth session, call 10 (one H200): does where the planes lie in memory move the engine's speed
# by the 1-1.5 % that b2r's one-slab rows show (their R ghost planes shift every plane by R - 1
# planes)? The engine's T1 with each field array's data shifted by 0, 256 KiB, 512 KiB, 1 MiB, one
# f32 plane (1186560 B at 512^3: b2r R = 2's shift in f32) and two (2373120 B: one f64 plane) from
# its allocation's start (yeex-exp: field-shift.patch, YEEX_EXP_FIELD_SHIFT), f32 and f64, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --repeats 5 --size 512 --exchanges overlap)
knob_runs YEEX_EXP_FIELD_SHIFT "none 0 262144 524288 1048576 1186560 2373120" yeex-exp "${args[@]}"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "^strong .* - " "$out"/shift*.txt | sed "s|$out/||" | awk '{print $1, $7}'
