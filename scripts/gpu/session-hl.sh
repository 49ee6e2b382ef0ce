#!/usr/bin/env bash
# Twenty-fourth session, call 3 (one GPU): coop's kernel forms in double. Coop on one GPU at 512^3
# in f64 with the form the trials choose and with each form fixed (YEEX_COOP_CALL_SOURCES=0:
# inlined, 1: called), three times in turn, with the trials' times (YEEX_COOP_TUNE_LOG=1); f32 once
# each for comparison.
#   BUILD_DIR=build/slim scripts/gpu/session-hl.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
export YEEX_COOP_TUNE_LOG=1
for rep in 1 2 3; do
  run "f64_trials_$rep" 60 "$b/yeex" "${coop_one_512[@]}" --precision f64
  for form in 0 1; do run "f64_form${form}_$rep" 60 env YEEX_COOP_CALL_SOURCES=$form "$b/yeex" "${coop_one_512[@]}" --precision f64; done
done
run f32_trials 60 "$b/yeex" "${coop_one_512[@]}"
for form in 0 1; do run "f32_form$form" 60 env YEEX_COOP_CALL_SOURCES=$form "$b/yeex" "${coop_one_512[@]}"; done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - \|trial\|form" "$out"/f*.txt | grep -v "^[^:]*:#" | sed "s|$out/||" | cut -c1-160
