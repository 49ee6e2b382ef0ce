#!/usr/bin/env bash
# Twentieth session, call 2 (4 GPUs): coop's sweep sources added after the bulk loop (no test in
# it): test_multi_gpu's coop cases; strong 128^3 on 1 and 4 GPUs (400 steps x 9) with yeex and
# yeex-head (dd781bd), three times; coop on one GPU at 512^3 (f32, f64) with both. Then whether the
# 4-GPU step at 640^3 gets what programmatic dependent launch gives one GPU: the engine on one
# GPU over 640 x 640 x 160 and strong 640^3 (host-staged, overlap, graph on 1 and 4 GPUs) with
# YEEX_PDL=0 and 1, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-fx.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
coop_start
for rep in 1 2 3; do
  for bin in yeex yeex-head; do run "strong128_${bin}_$rep" 100 "$b/$bin" "${long[@]}"; done
  pack
done
coop_versus yeex-head; pack
box_deck slab160 640 640 160 400
for rep in 1 2; do
  for pdl in 0 1; do
    box_run "slab160_pdl${pdl}_$rep" slab160 YEEX_PDL=$pdl -- --gpus 1
    run "strong640_pdl${pdl}_$rep" 150 env YEEX_PDL=$pdl "${bench[@]}" --scaling strong --size 640 --counts 1,4 --exchanges host-staged,overlap,graph
  done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt | head
grep -H " coop " "$out"/strong128_*.txt "$out"/*_coop512*.txt | sed "s|$out/||"
grep -H "stepping" "$out"/slab*.txt | sed "s|$out/||"
grep -H "strong " "$out"/strong640_*.txt | sed "s|$out/||"
