#!/usr/bin/env bash
# Thirteenth session, call 1 (one GPU): coop's fused step (H and E jobs in one order, E a few planes
# behind H, per-plane counters instead of two sweeps cut by grid.sync() bands) against yeex-prev
# (the bands): the gpu tests, the CPML deck's bits under coop on 1 and 4 slabs, coop at 512^3 f32,
# f64 and CPML with both builds, the skew at 2 / 3 / 5 / 8 planes, and 128^3 / 256^3.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_multi_gpu test_cuda_engine; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
pack
cpml_deck
coop_bits yeex yeex-prev
pack
coop_versus yeex-prev cpml
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --steps 100 --repeats 5)
for skew in 2 3 5 8; do run "yeex_coop512_skew$skew" 60 env YEEX_COOP_SKEW=$skew "$b/yeex" "${args[@]}" --size 512; done
for bin in yeex yeex-prev; do
  for size in 128 256; do run "${bin}_coop$size" 60 "$b/$bin" "${args[@]}" --size $size --steps 400 --repeats 9; done
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
