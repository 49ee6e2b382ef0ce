#!/usr/bin/env bash
# One device call (1 GPU), tenth session, first: how the CPML shells are scheduled (YEEX_EXP_SHELLS;
# code: results/2026-11-24-session10/patches/shell-experiments.patch): the build (forked on the
# shell stream), inline (cores, one stream), pdl (one
# stream, each launch a programmatic dependent launch of the one before), graph (the forked sweep
# captured once as a CUDA graph). The CPML deck's bits under each (forced fork), the cuda engine's
# gpu tests under pdl and graph, then PEC, the build and the modes at 512^3 f32, twice.
#   BUILD_DIR=build/slim scripts/gpu/session-bn.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
cpml_deck
f=YEEX_CPML_FORK_NODES=0
variant_bits "" "$f" "$f YEEX_EXP_SHELLS=inline" "$f YEEX_EXP_SHELLS=pdl" "$f YEEX_EXP_SHELLS=graph"
fork_tests "" YEEX_EXP_SHELLS pdl graph
for rep in 1 2; do
  cpml_variants "$rep" inline YEEX_EXP_SHELLS=inline pdl YEEX_EXP_SHELLS=pdl graph YEEX_EXP_SHELLS=graph
done
run cpml64_base 60 "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
run cpml64_pdl 60 env YEEX_EXP_SHELLS=pdl "${one[@]}" --exchanges overlap --size 512 --precision f64 --cpml 10
pack
