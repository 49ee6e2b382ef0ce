#!/usr/bin/env bash
# Nsight Compute, every section (--set full), on the four sweep launches of one H half-step of
# 512^3 with 10-cell CPML on every face (the z, y and x shell pairs, the plain box), then the
# details page as text: OUT_DIR/full.txt (ninth session, issue 5).
#   scripts/gpu/ncu-full.sh OUT_DIR [VAR=VALUE ...]   (build in build/slim)
set -uo pipefail
export NCCL_NVLS_ENABLE=0 CUDA_VISIBLE_DEVICES=0
b=build/slim
out=$1; shift; mkdir -p "$out"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
timeout 400 env "$@" $NCU --clock-control none --set full --kernel-name regex:yee_sweep_kernel --launch-skip 8 --launch-count 4 \
  -o "$out/full" $b/yeex bench --engine cuda --gpus 1 --counts 1 --size 512 --steps 2 --warmup 0 --repeats 1 \
  --exchanges overlap --cpml 10 > "$out/full.log" 2>&1
echo "ncu exit $?" >> "$out/full.log"
$NCU --import "$out/full.ncu-rep" --page details > "$out/full.txt" 2>&1
$NCU --import "$out/full.ncu-rep" --page raw --csv > "$out/raw.csv" 2>&1
