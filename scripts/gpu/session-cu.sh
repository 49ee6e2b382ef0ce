#!/usr/bin/env bash
# Twelfth session, call 11 (one GPU): the final build against yeex-prev (before the Lean coop CPML
# kernel): gpu-check.sh; the engine's CPML 512^3 in f64 twice with both (the engine's kernels must
# be as before); the CPML deck's bits under coop (coop_bits) and coop's CPML rates (coop_cpml_rates)
# with the final build; validate with coop.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
run gpu_check 400 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
for rep in 1 2; do
  for bin in yeex yeex-prev; do
    run "${bin}_engine_cpml64_$rep" 60 "$b/$bin" bench --engine cuda --gpus 1 --counts 1 --exchanges overlap --size 512 \
      --cpml 10 --precision f64 --steps 50 --warmup 10 --repeats 5
  done
done
cpml_deck
coop_bits yeex
pack
run validate_coop 200 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --json "$out/validate_coop.json"
coop_cpml_rates yeex
