#!/usr/bin/env bash
# Thirteenth session, call 14 (one GPU): coop's bands on small grids. At 128^3 a sweep has 8 tiles
# per block and one band boundary (66 planes of 128), so a step pays two more grid.sync()s than it
# would without bands: coop at 128^3 (400 steps x 9) and 256^3 with the default bands and with none
# (YEEX_COOP_BAND=0), twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop)
for rep in 1 2; do
  for band in default 0; do
    env=()
    [[ $band == 0 ]] && env=(YEEX_COOP_BAND=0)
    run "coop128_band${band}_$rep" 60 env "${env[@]}" "$b/yeex" "${args[@]}" --size 128 --steps 400 --repeats 9
    run "coop256_band${band}_$rep" 60 env "${env[@]}" "$b/yeex" "${args[@]}" --size 256 --steps 100 --repeats 5
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
grep -H "coop " "$out"/coop*.txt | sed "s|$out/||" | awk '{print $1, $6, $7}'
