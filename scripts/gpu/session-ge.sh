#!/usr/bin/env bash
# Twentieth session, call 9 (one GPU): the committed build's CPML timing, which session 19 measured
# only with its regressed form of dependent launches: PEC and 10-cell CPML at 512^3 in f32 under
# overlap on one GPU, twice (pec_REP, base_REP), and coop with CPML at 512^3 (f32 twice, f64).
#   BUILD_DIR=build/slim scripts/gpu/session-ge.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
for rep in 1 2; do cpml_baseline $rep; pack; done
coop_cpml_rates yeex
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "overlap \| - " "$out"/pec_*.txt "$out"/base_*.txt | grep -v "#" | sed "s|$out/||"
cat "$out/rates.txt"
