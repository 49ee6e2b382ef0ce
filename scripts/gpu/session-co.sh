#!/usr/bin/env bash
# Twelfth session, call 4 (one GPU): the build to commit (yeex: slabs sharing a GPU, coop in
# 1024-thread blocks, balanced bands) against yeex-e19818c (slabs sharing a GPU, coop as before):
# candidate-check.sh (gpu-check.sh with its new 4-slab checksum section, the CPML deck's bits,
# PEC/CPML 512^3 twice, coop on one GPU f32/f64/CPML, validate, validate with coop, cpml-check);
# then (in OUT_DIR/extra) validate with coop on 4 slabs of the one GPU, and coop at 256^3 and
# 128^3 with both builds.
set -uo pipefail
scripts/gpu/candidate-check.sh "$1" yeex-e19818c --coop-cpml
source scripts/gpu/lib.sh "$1/extra"
run validate_coop_4slabs 150 "$b/yeex" validate --engine cuda --gpus 1 --subdomains 4 --exchange coop --json "$out/validate_coop_4slabs.json"
pack
for size in 256 128; do
  for bin in yeex yeex-e19818c; do
    run "${bin}_coop$size" 60 "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size $size --steps 200 --repeats 5
  done
done
pack
