#!/usr/bin/env bash
# Twelfth session, call 5 (one GPU, an H100 for a second kind of machine): the final build.
# scripts/gpu-check.sh (every gpu test, 1..4 slabs on the one GPU; the 4-slab checksums; the bench
# at 128-512^3 f32 and 512^3 f64 with every backend, now with the `own` column); coop and overlap
# at 512^3 f32 and f64; yeex validate with coop on 4 slabs of the GPU.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
run gpu_check 400 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
for p in f32 f64; do
  run "coop_overlap_512_$p" 60 "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --warmup 20 --steps 100 --repeats 5 --exchanges coop,overlap --size 512 --precision $p
done
run validate_coop_4slabs 150 "$b/yeex" validate --engine cuda --gpus 1 --subdomains 4 --exchange coop --json "$out/validate_coop_4slabs.json"
pack
