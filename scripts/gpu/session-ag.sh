#!/usr/bin/env bash
# One device call (1 GPU), seventh session, sixth: CPML 512^3 (10 cells, every face) with the psi
# loads and stores marked streaming (__ldcs/__stcs, evict first: yeex-exp, the build with
# YEEX_PSI_STREAMING defined in kernels/cpml.hpp), so that the psi arrays, read and written once per
# half-step, leave L2 to the field planes; against the build and PEC, f32 twice, f64, 256^3.
#   BUILD_DIR=build/slim scripts/gpu/session-ag.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
args=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
for rep in 1 2; do
  run "pec_$rep" 60 "$b/yeex" "${args[@]}" --size 512
  run "base_$rep" 60 "$b/yeex" "${args[@]}" --size 512 --cpml 10
  run "streaming_$rep" 60 "$b/yeex-exp" "${args[@]}" --size 512 --cpml 10
done
pack
run f64_pec 60 "$b/yeex" "${args[@]}" --size 512 --precision f64
run f64_base 60 "$b/yeex" "${args[@]}" --size 512 --precision f64 --cpml 10
run f64_streaming 60 "$b/yeex-exp" "${args[@]}" --size 512 --precision f64 --cpml 10
run f64_streaming_cores 60 env YEEX_CPML_CORES=1 "$b/yeex-exp" "${args[@]}" --size 512 --precision f64 --cpml 10
run s256_base 60 "$b/yeex" "${args[@]}" --size 256 --cpml 10
run s256_streaming 60 "$b/yeex-exp" "${args[@]}" --size 256 --cpml 10
run streaming_cores 60 env YEEX_CPML_CORES=1 "$b/yeex-exp" "${args[@]}" --size 512 --cpml 10
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
