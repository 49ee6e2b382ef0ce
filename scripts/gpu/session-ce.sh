#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: shell boxes w*32+1 wide cut into a 32-multiple box and
# a one-node column of narrow blocks (YEEX_EXP_COLUMN=1; 2: the plain box too), the strips' kernel
# at MinBlocks 5 / 6 (YEEX_EXP_STRIPMIN), psi in evict-first loads and stores (yeex-psi-cs), every
# field store evict-first (yeex-store-cs); 512^3 f32, twice. Tests and bits of the column cut first.
#   BUILD_DIR=build/slim scripts/gpu/session-ce.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
exp_start column YEEX_EXP_COLUMN=2
run cuda_tests_fork_col 150 env YEEX_CPML_FORK_NODES=0 YEEX_EXP_COLUMN=2 "$b/tests/gpu/test_cuda_engine_exp" --gtest_color=no
exp_bits smin5 YEEX_EXP_STRIPMIN=5
for bin in yeex-psi-cs yeex-store-cs; do for p in f32 f64; do deck_bits "[$bin]" $bin cuda $p; done; done
pack
for rep in 1 2; do
  one[0]=$b/yeex-exp
  cpml_variants "$rep" col1 YEEX_EXP_COLUMN=1 col2 YEEX_EXP_COLUMN=2 smin5 YEEX_EXP_STRIPMIN=5 smin6 YEEX_EXP_STRIPMIN=6 \
    col1s5 "YEEX_EXP_COLUMN=1 YEEX_EXP_STRIPMIN=5"
  run "pec_col2_$rep" 60 env YEEX_EXP_COLUMN=2 "${one[@]}" --exchanges overlap --size 512 --precision f32
  pair yeex-psi-cs "_$rep" 512 f32
  pair yeex-store-cs "_$rep" 512 f32
  pair yeex "_$rep" 512 f32
  pack
done
