#!/usr/bin/env bash
# Twenty-seventh session, call 3 (4 x H200): coop's sent plane stored from the pair's new values
# in 8-byte stores. Call 2's profile: a sweep that sends a plane takes 18-24 us longer than on one
# GPU. yeex-v1: the stores 8 bytes a pair (reloaded); yeex-v1b: 8 bytes a pair from the values the
# update computed (test_multi_gpu is v1b's); yeex-prof / yeex-v1b-prof: the same with call 2's
# profile. coop's gpu tests on v1b; weak 512^3 on 1 and 4 GPUs, each build twice in turn. Then the
# engine's fixed cost a step: one GPU on the tall deck's 256^2 planes, 256 / 1024 / 4096 of them,
# 50 and 200 steps a repeat.
#   BUILD_DIR=build/slim scripts/gpu/session-ip.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
coop_tested_start
for rep in 1 2; do
  for bin in yeex yeex-v1 yeex-v1b yeex-prof yeex-v1b-prof; do run "weak4_${bin}_$rep" 120 "$b/$bin" "${coop_weak4[@]}"; done
  pack
done
for nz in 256 1024 4096; do
  tall_planes $nz
  for steps in 50 200; do engine_deck "engine_tall${nz}_$steps" "tall$nz" $steps; done
done
finish
grep -h "coop profile" "$out"/weak4_*prof*.txt
