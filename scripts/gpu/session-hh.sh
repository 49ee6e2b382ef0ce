#!/usr/bin/env bash
# Twenty-third session, call 11 (one GPU): an experiment build (yeex-pf, not kept unless it wins):
# at each band's grid.sync() coop's blocks ask L2 for their next tile's rows (YEEX_COOP_PREFETCH=1)
# while they wait. Coop on one GPU at 512^3, f32 and f64, with and without, three times in turn.
#   BUILD_DIR=build/slim scripts/gpu/session-hh.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
args=("${coop_one_512[@]}")
for rep in 1 2 3; do
  for pf in 0 1; do run "f32_pf${pf}_$rep" 60 env YEEX_COOP_PREFETCH=$pf "$b/yeex-pf" "${args[@]}"; done
done
for pf in 0 1; do run "f64_pf$pf" 60 env YEEX_COOP_PREFETCH=$pf "$b/yeex-pf" "${args[@]}" --precision f64; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - " "$out"/f*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $6, $7, $12}'
