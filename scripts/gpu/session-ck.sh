#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: coop's persistent kernel reading the engine's phase
# table (16-byte coefficient loads, yeex-phases) and with the seventh session's 1024-thread blocks
# (yeex-c1024, yeex-c1024p: both), against the build (yeex). Their one-GPU tests, the CPML deck's
# bits under coop, then coop on one GPU at 512^3 f32 (twice), f64, with CPML, 256^3 and 128^3.
#   BUILD_DIR=build/slim scripts/gpu/session-ck.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
for t in test_multi_gpu_phases test_cuda_engine_phases test_multi_gpu_c1024p; do
  run "$t" 150 "$b/tests/gpu/$t" --gtest_color=no
done
cpml_deck
for bin in yeex yeex-phases yeex-c1024 yeex-c1024p; do
  for p in f32 f64; do
    "$b/$bin" run "$out/deck.toml" --engine cuda --exchange coop --precision $p --output "$out/o" 2>&1 |
      grep checksum | sed "s/^/[$bin coop] $p /" >> "$out/bits.txt"
    rm -rf "$out/o"
  done
done
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --repeats 5)
for rep in 1 2; do
  for bin in yeex yeex-phases yeex-c1024 yeex-c1024p; do
    run "${bin}_coop512_$rep" 60 "$b/$bin" "${args[@]}" --size 512 --steps 100
  done
done
for bin in yeex yeex-phases yeex-c1024 yeex-c1024p; do
  run "${bin}_coop512_f64" 60 "$b/$bin" "${args[@]}" --size 512 --steps 50 --precision f64
  run "${bin}_coop512_cpml" 60 "$b/$bin" "${args[@]}" --size 512 --steps 50 --cpml 10
  run "${bin}_coop256" 60 "$b/$bin" "${args[@]}" --size 256 --steps 400 --repeats 9
  run "${bin}_coop128" 60 "$b/$bin" "${args[@]}" --size 128 --steps 400 --repeats 9
done
pack
