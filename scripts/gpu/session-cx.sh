#!/usr/bin/env bash
# Thirteenth session, call 2 (one GPU): where the fused step's time goes. yeex-exp takes
# YEEX_COOP_EXP, a bit mask that drops parts of the synchronisation (timing only, wrong fields):
# 1 the E tiles' wait for their H planes, 2 the barrier after it, 4 the barrier before an H tile is
# counted, 8 the count. coop at 512^3 f32 under each, and the skew with all of them dropped.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --steps 100 --repeats 5 --size 512)
run prev 60 "$b/yeex-prev" "${args[@]}"
for exp in 0 1 3 4 13 15; do run "exp$exp" 60 env YEEX_COOP_EXP=$exp "$b/yeex-exp" "${args[@]}"; done
for skew in 1 2 4 8 16; do run "exp15_skew$skew" 60 env YEEX_COOP_EXP=15 YEEX_COOP_SKEW=$skew "$b/yeex-exp" "${args[@]}"; done
run exp0_skew2 60 env YEEX_COOP_SKEW=2 "$b/yeex-exp" "${args[@]}"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
grep -H "coop " "$out"/*.txt | sed "s|$out/||"
