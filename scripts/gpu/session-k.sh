#!/usr/bin/env bash
# One device call (4 GPUs), fifth session, second call: every gpu test (one line per test, to see
# where time goes), then coop's band boundaries: a window (a block waits only until every block
# has passed the boundary before; the default) against grid.sync() (YEEX_COOP_BAND_WAIT=grid), at
# several band sizes, on one GPU at 512^3 and weak 512^3/GPU on 4; host-staged and coop rows.
#   BUILD_DIR=build/slim scripts/gpu/session-k.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for t in "$b"/tests/gpu/test_*; do run "tests_$(basename "$t")" 300 "$t" --gtest_color=no; done
one=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges coop)
for band in 16 32 64; do
  YEEX_COOP_BAND=$band run coop1_window$band 60 "${one[@]}"
  YEEX_COOP_BAND=$band YEEX_COOP_BAND_WAIT=grid run coop1_grid$band 60 "${one[@]}"
done
YEEX_COOP_BAND=0 run coop1_nobands 60 "${one[@]}"
for band in 16 32 64; do
  YEEX_COOP_BAND=$band run weak_coop_window$band 60 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges coop
done
YEEX_COOP_BAND_WAIT=grid run weak_coop_grid64 60 "${bench[@]}" --scaling weak --size 512 --counts 4 --exchanges coop
run strong_128_coop 60 $b/yeex bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 4 --exchanges coop
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
