#!/usr/bin/env bash
# Fourteenth session, call 4 (one H200): why calling inject_sources wins at 128^3 on one GPU (43.3
# against 40.9 Gcells/s) but loses on 128 x 128 x 32 (38.1 against 41.7, call 3). coop with each
# form (c0: inlined, c1: called) on 128 x 128 x 32, x 64, x 128 (quarter_deck) at the grid's own
# blocks per SM and at 1 and 2 (YEEX_COOP_BLOCKS_PER_SM: b1, b2); twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for c in 0 1; do
  env_bin "c$c" YEEX_COOP_CALL_SOURCES=$c
  for k in 1 2; do env_bin "c${c}b$k" YEEX_COOP_CALL_SOURCES=$c YEEX_COOP_BLOCKS_PER_SM=$k; done
done
for nz in 32 64 128; do
  quarter_deck $nz "z$nz"
  DECK=z$nz quarter_runs 2 c0 c1 c0b1 c1b1 c0b2 c1b2
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "Gcells" "$out"/z*_*.txt | sed "s|$out/||" | awk '{print $1, $4}'
