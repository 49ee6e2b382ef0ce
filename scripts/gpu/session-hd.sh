#!/usr/bin/env bash
# Twenty-third session, call 8 (one GPU): coop's band length at 512^3 on one GPU (YEEX_COOP_BAND;
# the default takes 66 planes there, 0 turns bands off), against the engine in the same run.
#   BUILD_DIR=build/slim scripts/gpu/session-hd.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
for rep in 1 2; do
  for band in 66 33 99 132 198 264 0; do
    ((rep == 2)) && [[ $band != 66 && $band != 132 && $band != 198 ]] && continue
    run "band${band}_$rep" 60 env YEEX_COOP_BAND=$band "$b/yeex" "${coop_one_512[@]}"
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - " "$out"/band*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $6, $7, $12}'
