#!/usr/bin/env bash
# Twentieth session, call 1 (4 GPUs): coop with the sources added in its E sweep (sweep sources)
# against the rounds (YEEX_COOP_SWEEP_SOURCES=0, as yeex-sr) and against the session's starting
# build (yeex-head, dd781bd): the coop and bench tests of test_multi_gpu; strong 128^3 on 1 and 4
# GPUs (400 steps x 9) with each, three times, and the bench box without its source (yeex run of
# 128^3 on 4 GPUs); coop on one GPU at 512^3 (f32, f64) with yeex and yeex-head; then the engine on
# one GPU over 640 x 640 x NZ (NZ = 160, 320, 640; 400 steps), twice.
#   BUILD_DIR=build/slim scripts/gpu/session-fw.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
coop_tests sweep; pack
env_bin yeex-sr YEEX_COOP_SWEEP_SOURCES=0
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges coop)
box_deck box128 128 128 128 20000
box_deck box128ns 128 128 128 20000 nosource
for rep in 1 2 3; do
  for bin in yeex yeex-sr yeex-head; do run "strong128_${bin}_$rep" 100 "$b/$bin" "${long[@]}"; done
  for deck in box128 box128ns; do box_run "run_${deck}_$rep" "$deck" -- --gpus 4 --exchange coop; done
  pack
done
coop_versus yeex-head; pack
for nz in 160 320 640; do box_deck "slab$nz" 640 640 $nz 400; done
for rep in 1 2; do
  for nz in 160 320 640; do box_run "slab${nz}_$rep" "slab$nz" -- --gpus 1; done
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt | head
grep -H " coop \| 1 .*engine\|^coop\|engine" "$out"/strong128_*.txt | grep -v "^#" | head -40
grep -H "Gcells/s\|stepping" "$out"/run_*.txt "$out"/slab*.txt | head -30
grep -H "coop " "$out"/*_coop512*.txt
