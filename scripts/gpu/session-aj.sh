#!/usr/bin/env bash
# One device call (1 GPU), seventh session, ninth: coop's persistent sweep on one GPU against the
# engine (T1 of the same invocation), 512^3 and 256^3, PEC, with blocks of 256 (the build), 512 and
# 1024 threads (yeex-b512, yeex-b1024: YEEX_COOP_BLOCK_SIZE at compile time, tiles 32 x B/32,
# the same threads per SM) and bands of 32, 64 and 128 planes (YEEX_COOP_BAND): fewer, larger
# blocks make each grid.sync() cheaper, so smaller bands may pay.
#   BUILD_DIR=build/slim scripts/gpu/session-aj.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
args=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges coop)
for bin in yeex yeex-b512 yeex-b1024; do
  for band in 32 64 128; do
    run "${bin}_band${band}_512" 60 env YEEX_COOP_BAND=$band "$b/$bin" "${args[@]}" --size 512
  done
  run "${bin}_band64_256" 60 env YEEX_COOP_BAND=64 "$b/$bin" "${args[@]}" --size 256 --steps 400 --repeats 9
  pack
done
run yeex_band64_512_again 60 env YEEX_COOP_BAND=64 "$b/yeex" "${args[@]}" --size 512
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
