#!/usr/bin/env bash
# Twenty-fourth session, call 4 (all GPUs): coop reads the engine's coefficient table. In the
# experiment build (yeex; yeex-base is the committed code) the persistent kernel loads a node's
# coefficients as the engine's sweep kernels do, in 16-byte pieces from the phase table
# (kernels/cuda/phase_coefficients.cuh), and its material class through the read-only path: 16
# loads a node instead of 22. The gpu tests of the build (coop's and every other); coop on one GPU
# at 512^3 against yeex-base, f32 twice in turn, f64, 10-cell CPML f32 and f64; weak 512^3 on 1 and
# all GPUs; the default deck's checksum under coop on 4 slabs of one GPU, each build.
#   BUILD_DIR=build/slim scripts/gpu/session-hm.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_tests
pack
knob_versus x YEEX_UNUSED 2 ""
for v in "--precision f64" "--cpml 10" "--cpml 10 --precision f64"; do
  tag=$(echo "$v" | tr -d ' -')
  for bin in yeex-base yeex; do run "one_${tag}_$bin" 60 "$b/$bin" "${coop_one_512[@]}" $v; done
done
pack
for bin in yeex-base yeex; do
  for p in f32 f64; do
    "$b/$bin" run --engine cuda --gpus 1 --subdomains 4 --exchange coop --precision $p --output "$out/o" 2>&1 |
      grep checksum | sed "s/^/$bin $p /" >> "$out/bits.txt"
    rm -rf "$out/o"
  done
done
weak_versus x YEEX_UNUSED ""
cat "$out/bits.txt"
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -40
grep -H "coop \| - " "$out"/one*.txt "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $6, $7, $8, $12, $13}'
