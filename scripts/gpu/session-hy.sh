#!/usr/bin/env bash
# Twenty-fifth session, call 8 (one GPU of the machine): coop's node-pair block shape on the small
# slabs of the latency-bound case, `yeex` (512 threads x 3 a multiprocessor) against `yeex-b1024`
# (1024 x 1, built from src/exchange/coop_exchange.cu with the two constants changed) and one node a
# thread (YEEX_COOP_PAIRS=0): the bench box on 128 x 128 x 32 (a GPU's share of 128^3 over 4),
# x 64 (over 2) and 128^3, coop on one GPU, 400 steps x 9 after 50, three times in turn.
#   BUILD_DIR=build/slim scripts/gpu/session-hy.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
env_bin yeex-p0 YEEX_COOP_PAIRS=0
for nz in 32 64 128; do box_deck "z$nz" 128 128 "$nz" 20000; done
for rep in 1 2 3; do
  for nz in 32 64 128; do
    for bin in yeex yeex-b1024 yeex-p0; do
      run "z${nz}_${bin}_$rep" 60 "$b/$bin" bench --deck "$out/z$nz.toml" --engine cuda --gpus 1 --counts 1 --exchanges coop \
        --steps 400 --warmup 50 --repeats 9
    done
  done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -H "coop \| - " "$out"/z*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7}' | sort
cat "$out/summary.txt"
