#!/usr/bin/env bash
# One device call (1 GPU), tenth session, fifth: no strips (YEEX_EXP_EDGES): z cores; y boxes
# over every plane, their warps in a z slab taking the y+z path; x boxes over every row and plane,
# their warps in a y or z slab taking that path too. Three launches per sweep. Register caps:
# =1 x 40 (spills), y 48; =2 x 48, y 48; =3 x 40, y 40; =4 x 48, y 40. Bits (forced fork), the
# cuda engine's gpu tests, 512^3 f32 three times, f64.
#   BUILD_DIR=build/slim scripts/gpu/session-br.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f YEEX_EXP_EDGES=1" "$f YEEX_EXP_EDGES=2" "$f YEEX_EXP_EDGES=3" "$f YEEX_EXP_EDGES=4"
fork_tests "edges" YEEX_EXP_EDGES 1 4
for rep in 1 2 3; do
  cpml_variants "$rep" edges1 YEEX_EXP_EDGES=1 edges2 YEEX_EXP_EDGES=2 edges3 YEEX_EXP_EDGES=3 edges4 YEEX_EXP_EDGES=4
done
for v in "" YEEX_EXP_EDGES=2 YEEX_EXP_EDGES=4; do
  run "cpml64_${v//[ =]/_}" 60 env $v "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
done
pack
