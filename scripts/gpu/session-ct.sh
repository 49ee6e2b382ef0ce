#!/usr/bin/env bash
# Twelfth session, call 9 (one GPU): the build to commit (coop's CPML kernel Lean, 5 blocks per
# SM in float, 3 in double; update_cell_with_cpml's loads through load_cpml_face) against
# yeex-prev (the code before it): candidate-check.sh --coop-cpml (gpu-check.sh, the engine's CPML
# deck bits, PEC/CPML 512^3 twice each, coop f32/f64/CPML, validate, validate with coop,
# cpml-check); then (OUT_DIR/extra) the CPML deck's bits under coop on 1 and 4 slabs, f32 and
# f64, both builds; coop with CPML in f64 and at 256^3, both builds.
set -uo pipefail
scripts/gpu/candidate-check.sh "$1" yeex-prev --coop-cpml
source scripts/gpu/lib.sh "$1/extra"
cpml_deck
coop_bits yeex yeex-prev
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --cpml 10 --repeats 5)
for bin in yeex yeex-prev; do
  run "${bin}_coop_cpml512_f64" 60 "$b/$bin" "${args[@]}" --size 512 --steps 30 --precision f64
  run "${bin}_coop_cpml256" 60 "$b/$bin" "${args[@]}" --size 256 --steps 100
done
grep -H "coop " "$out"/*_coop_*.txt | sed 's|.*/||' > "$out/rates.txt"
pack
