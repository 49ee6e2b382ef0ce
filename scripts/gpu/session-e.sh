#!/usr/bin/env bash
# One device call (4 GPUs), fourth session, second call: every gpu test, then the scaling tables
# with coop's grid of 4 tiles per block (strong 128^3 at 1, 2, 4 GPUs, 256^3 and 512^3 at 4, for
# every backend; weak 512^3/GPU for coop at 1 and 4), and Nsight Compute of coop's persistent
# sweep against the engine's at 512^3 on one GPU. Everything also lands in OUT_DIR.tar.gz.
#   BUILD_DIR=build/slim scripts/gpu/session-e.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
gpu_tests
run strong_128 60 "${bench[@]}" --scaling strong --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"
run strong_128_coop_again 30 "${bench[@]}" --scaling strong --size 128 --counts 4 --exchanges coop,b2r --halo-depth 2
run strong_256 70 "${bench[@]}" --scaling strong --size 256 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"
run weak_512_coop 90 "${bench[@]}" --scaling weak --size 512 --counts 1,4 --exchanges coop --json "$out/weak_512_coop.json"
run strong_512 150 "${bench[@]}" --scaling strong --size 512 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"
if command -v ncu > /dev/null; then
  run ncu_pec_sweeps 90 ncu --set full -k 'regex:yee_sweep|coop_kernel' -c 3 \
    "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 1 --warmup 0 --repeats 1 --exchanges coop
fi
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
