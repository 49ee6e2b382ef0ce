#!/usr/bin/env bash
# Fourteenth session, call 5 (one H200): coop times its two forms in each run and keeps the faster
# (kFormTrials). The gpu tests; 128 x 128 x 32, x 64, x 128 under coop with the choice made by the
# run (tuned, YEEX_COOP_TUNE_LOG=1: the trial times on stderr) and with each form fixed (c0:
# inlined, c1: called), twice; yeex bench's coop row at 128^3, 256^3, 512^3 in f32, and 512^3 in
# f64, the same three ways.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
env_bin tuned YEEX_COOP_TUNE_LOG=1
for c in 0 1; do env_bin "c$c" YEEX_COOP_CALL_SOURCES=$c; done
gpu_test_pair test_multi_gpu test_cuda_engine
pack
for nz in 32 64 128; do
  quarter_deck $nz "z$nz"
  DECK=z$nz quarter_runs 2 tuned c0 c1
done
pack
coop_rate_runs 1 "tuned c0 c1" "128 --steps 400 --repeats 9" 256 512 "512 --precision f64 --steps 40 --repeats 5"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
for f in "$out"/z*_*.txt; do echo "$(basename "$f" .txt) $(grep stepping "$f" | awk '{print $4}') $(grep -h "^coop:" "$f" | sed 's/coop: subdomain 0: //' | head -1)"; done
grep -H "coop " "$out"/tuned*.txt "$out"/c[01]_*.txt | sed "s|$out/||" | awk '{print $1, $7}'
grep -h "^coop:" "$out"/tuned_*.txt | head -8
