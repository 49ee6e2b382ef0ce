#!/usr/bin/env bash
# Twelfth session, call 3 (one GPU): coop's band length against the grid. A band's tiles are
# dealt to the persistent grid's blocks in turn; at 512^3 in float a band of 64 planes holds
# 64 x 256 = 16384 tiles of 32 x 32 for 264 blocks (2 per SM of 132), 62.06 each: 16 blocks take
# a 63rd tile while the others wait at the band's grid.sync(). 66 planes hold 16896 = 64 x 264.
# BUILD_DIR/yeex-1024 (main since 4a5405b), coop at 512^3, f32 (bands 64, 66, 33, 132, 0) and f64
# (3 blocks of 512 per SM: 396 blocks, 512 tiles of 32 x 16 a plane; bands 64, 99), twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512 --repeats 5)
for rep in 1 2; do
  for band in 64 66 33 132 0; do run "f32_band${band}_$rep" 60 env YEEX_COOP_BAND=$band "$b/yeex-1024" "${args[@]}" --steps 100; done
  for band in 64 99; do run "f64_band${band}_$rep" 60 env YEEX_COOP_BAND=$band "$b/yeex-1024" "${args[@]}" --steps 50 --precision f64; done
  pack
done
grep -H "coop " "$out"/*band*.txt | sed 's|.*/||' > "$out/rates.txt"
pack
