#!/usr/bin/env bash
# One device call (1 GPU), seventh session, last: the build with coop's persistent grid in blocks
# of 1024 threads in float (512 in double; CPML 256 as before): scripts/gpu-check.sh (every gpu
# test, the default deck, the benchmark at 128^3-512^3 in f32 and 512^3 in f64, every backend
# on one GPU); coop on one GPU against the engine, this build against yeex-main (the previous
# build's coop: blocks of 256), 512^3 f32 twice, f64, 256^3 and 128^3 (400 steps x 9);
# `yeex validate` on one GPU (validate-check.sh) and with coop (f32 every problem, f64);
# cpml-check.sh's benchmark. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/session-al.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop)
for bin in yeex yeex-main; do
  run "${bin}_512_1" 60 "$b/$bin" "${args[@]}" --size 512 --steps 100 --repeats 5
  run "${bin}_512_f64" 60 "$b/$bin" "${args[@]}" --size 512 --steps 50 --repeats 5 --precision f64
  run "${bin}_256" 60 "$b/$bin" "${args[@]}" --size 256 --steps 400 --repeats 9
  run "${bin}_128" 60 "$b/$bin" "${args[@]}" --size 128 --steps 400 --repeats 9
  run "${bin}_512_cpml" 60 "$b/$bin" "${args[@]}" --size 512 --steps 50 --repeats 5 --cpml 10
done
for bin in yeex yeex-main; do run "${bin}_512_2" 60 "$b/$bin" "${args[@]}" --size 512 --steps 100 --repeats 5; done
pack
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh; pack
run validate_coop 200 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --json "$out/validate_coop.json"
run validate_coop_f64 200 "$b/yeex" validate --engine cuda --gpus 1 --exchange coop --precision f64 --only cavity,propagation,dipole
OUT=$out/cpml YEEX_CPML_SKIP_TESTS=1 run cpml_check 120 scripts/gpu/cpml-check.sh "$b"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
