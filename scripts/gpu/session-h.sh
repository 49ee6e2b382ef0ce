#!/usr/bin/env bash
# One device call (4 GPUs), fourth session, last call, on the final build: every gpu test, coop's
# one-GPU sweep at 512^3 against its knobs (blocks per SM, band size), strong 128^3 for every
# backend with 400 steps x 9 repeats (its run-to-run spread was ~10 % at 50 x 5), and the final
# coop rows (weak 512^3/GPU, strong 256^3 and 512^3). Everything also lands in OUT_DIR.tar.gz.
#   BUILD_DIR=build/slim scripts/gpu/session-h.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
gpu_tests
one=(--engine cuda --steps 50 --warmup 10 --repeats 5 --gpus 1 --counts 1 --size 512 --exchanges coop)
run coop1_default 30 $b/yeex bench "${one[@]}"
for blocks in 4 6; do YEEX_COOP_BLOCKS_PER_SM=$blocks run coop1_${blocks}bpsm 30 $b/yeex bench "${one[@]}"; done
for band in 128 512; do YEEX_COOP_BAND=$band run coop1_band$band 30 $b/yeex bench "${one[@]}"; done
run strong_128_long 120 $b/yeex bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,2,4 \
  --exchanges host-staged,p2p,overlap,coop,b2r,nccl --halo-depth 2 --json "$out/strong_128_long.json"
run coop_final 90 "${bench[@]}" --scaling weak --size 512 --counts 2,4 --exchanges coop --json "$out/coop_weak_512.json"
run coop_final_strong 60 "${bench[@]}" --scaling strong --size 256 512 --counts 4 --exchanges coop --json "$out/coop_strong.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
