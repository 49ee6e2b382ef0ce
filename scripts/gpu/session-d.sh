#!/usr/bin/env bash
# One device call (4 GPUs), fourth session: coop with border tiles inside its persistent kernel
# (every gpu test first, since every backend's plane offsets moved), the scaling tables it
# changes, strong 512^3 for every backend, and the CPML split on one GPU (single-axis core boxes
# against the 6-box split, YEEX_CPML_CORES=0), with Nsight Compute of coop's and the engine's
# sweeps at 512^3.
#   BUILD_DIR=build/slim scripts/gpu/session-d.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
gpu_tests
run strong_128 60 "${bench[@]}" --scaling strong --size 128 --counts 1,2,4 --exchanges $all --halo-depth 2 --json "$out/strong_128.json"
for blocks in 1 4 8; do
  YEEX_COOP_BLOCKS_PER_SM=$blocks run coop_strong_128_${blocks}bpsm 25 "${bench[@]}" --scaling strong --size 128 --counts 4 --exchanges coop
done
run strong_256 70 "${bench[@]}" --scaling strong --size 256 --counts 1,4 --exchanges $all --halo-depth 2 --json "$out/strong_256.json"
run weak_512_coop 90 "${bench[@]}" --scaling weak --size 512 --counts 1,4 --exchanges coop --json "$out/weak_512_coop.json"
run strong_512 150 "${bench[@]}" --scaling strong --size 512 --counts 4 --exchanges $all --halo-depth 2 --json "$out/strong_512.json"
cpml=("$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 100 --warmup 20 --repeats 5 --exchanges coop)
run cpml_pec 40 "${cpml[@]}" --cpml 0 --json "$out/cpml_pec.json"
run cpml_cores 40 "${cpml[@]}" --cpml 10 --json "$out/cpml_cores.json"
YEEX_CPML_CORES=0 run cpml_six_boxes 40 "${cpml[@]}" --cpml 10 --json "$out/cpml_six_boxes.json"
if command -v ncu > /dev/null; then
  sections=(--section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section WarpStateStats)
  run ncu_pec_sweeps 60 ncu "${sections[@]}" -k 'regex:yee_sweep|coop_kernel' -c 3 \
    "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 1 --warmup 0 --repeats 1 --exchanges coop
  run ncu_cpml_split 60 ncu --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis -k regex:yee_sweep -c 30 \
    "$b/yeex" bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 2 --warmup 1 --repeats 1 --exchanges p2p --cpml 10
fi
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
