#!/usr/bin/env bash
# Fourteenth session, call 9 (one H200): is b2r's one-GPU gap at 512^3 (0.7-1.3 % slower than the
# engine in f32, 1.5 % faster in f64, with no exchange at all) the placement of the six field
# arrays, which its deeper ghost (R planes a side) shifts? b2r on one GPU at R = 2, 3, 4 in f32 and
# f64; and the engine's T1 with the arrays in one block, each 2 MiB-rounded plus a skew of 0, 64
# KiB, 256 KiB or 1 MiB (yeex-exp: field-skew.patch, YEEX_EXP_FIELD_SKEW) against the separate
# cudaMallocs of main (skew "none"), f32 and f64, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 10 --repeats 5 --size 512)
for p in f32 f64; do
  steps=60
  [[ $p == f64 ]] && steps=30
  for r in 2 3 4; do run "b2r_R${r}_$p" 60 "$b/yeex" "${args[@]}" --steps $steps --precision $p --exchanges b2r --halo-depth $r; done
done
pack
knob_runs YEEX_EXP_FIELD_SKEW "none 0 65536 262144 1048576" yeex-exp "${args[@]}" --exchanges overlap
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "^strong" "$out"/b2r_*.txt "$out"/skew*.txt | sed "s|$out/||" | awk '{print $1, $4, $5, $7}'
