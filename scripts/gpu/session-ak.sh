#!/usr/bin/env bash
# One device call (1 GPU), seventh session, tenth: coop's persistent sweep on one GPU against the
# engine (T1 of the same invocation), PEC: blocks of B threads in tiles X wide (yeex-bBxX, built
# with YEEX_COOP_BLOCK_SIZE and YEEX_COOP_TILE_X; yeex: 256 x 32) and bands of 48, 64, 96 planes;
# 512^3, then 256^3 and 128^3 (one GPU, 400 steps x 9).
#   BUILD_DIR=build/slim scripts/gpu/session-ak.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop)
for bin in yeex yeex-b1024x32 yeex-b1024x64 yeex-b1024x128 yeex-b512x64; do
  for band in 48 64 96; do
    run "${bin}_band${band}_512" 60 env YEEX_COOP_BAND=$band "$b/$bin" "${args[@]}" --steps 100 --repeats 5 --size 512
  done
  run "${bin}_256" 60 "$b/$bin" "${args[@]}" --size 256 --steps 400 --repeats 9
  run "${bin}_128" 60 "$b/$bin" "${args[@]}" --size 128 --steps 400 --repeats 9
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
