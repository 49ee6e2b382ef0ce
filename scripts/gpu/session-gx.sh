#!/usr/bin/env bash
# Twenty-third session, call 2 (one GPU is enough): coop's drawn units with the draws spread over
# YEEX_COOP_DRAW_COUNTERS counters (unit = ticket x counters + the block's counter), and drawn by
# a non-aggregated increment; coop on one GPU at 512^3 against yeex-base (ded7d4d, bands).
#   BUILD_DIR=build/slim scripts/gpu/session-gx.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
args=("${coop_one_512[@]}")
for rep in 1 2; do
  run "one_base_$rep" 60 "$b/yeex-base" "${args[@]}"
  for rc in 4:16 8:16 16:16 8:4 8:32 2:32; do
    run "one_r${rc%:*}_c${rc#*:}_$rep" 60 env YEEX_COOP_DRAW_ROWS=${rc%:*} YEEX_COOP_DRAW_COUNTERS=${rc#*:} "$b/yeex" "${args[@]}"
  done
done
pack
for v in "--precision f64" "--cpml 10"; do
  tag=$(echo "$v" | tr -d ' -')
  run "one_${tag}_base" 60 "$b/yeex-base" "${args[@]}" $v
  for rows in 4 8; do run "one_${tag}_r$rows" 60 env YEEX_COOP_DRAW_ROWS=$rows "$b/yeex" "${args[@]}" $v; done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - " "$out"/one*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $6, $7, $10}'
