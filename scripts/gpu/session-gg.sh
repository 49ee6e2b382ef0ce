#!/usr/bin/env bash
# Twentieth session, call 11 (4 GPUs): the 640^3 loss, by elimination, with an experiment build
# (results/2026-11-26-session20/call11/experiment.patch, not committed): YEEX_BF_EXPERIMENT=nosplit
# runs every step of the border-first backends as a step that does not exchange (no borders, no
# transfers: independent slabs under the same harness), =notransfer keeps the border split and
# lanes but issues no transfer and no wait between GPUs. Weak scaling on the 640 x 640 x 160 slab
# deck on 1, 2, 4 GPUs (host-staged, overlap), each way, twice. The fields are wrong under both;
# only the times count.
#   BUILD_DIR=build/slim scripts/gpu/session-gg.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
slab_start host-staged,overlap
for rep in 1 2; do
  for way in default nosplit notransfer; do run "weak_${way}_$rep" 200 env YEEX_BF_EXPERIMENT=$way "${bench[@]}" "${weak[@]}"; done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "weak " "$out"/weak_*.txt | sed "s|$out/||" | awk '{print $1, $3, $4, $5, $6, $12, $13}'
