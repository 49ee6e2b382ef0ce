#!/usr/bin/env bash
# The coop backend's grid size: bitwise tests, then strong 128^3 and weak 512^3/GPU with the
# persistent grid at 8 (all co-resident), 4, 2 and 1 blocks per SM (YEEX_COOP_BLOCKS_PER_SM).
#   scripts/gpu/coop-tune.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/cuda}
out=${2:-${OUT:-results/coop-tune}}
mkdir -p "$out"
exec > >(tee "$out/coop-tune.log") 2>&1
export NCCL_NVLS_ENABLE=0
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name --format=csv,noheader
"$build/tests/gpu/test_multi_gpu" --gtest_brief=1 --gtest_filter='*coop*:*Coop*' 2>&1 | tail -5
bench=("$build/yeex" bench --engine cuda --steps 50 --warmup 10 --repeats 5 --counts 1,4)
for b in 0 4 2 1; do
  echo "## YEEX_COOP_BLOCKS_PER_SM=$b"
  YEEX_COOP_BLOCKS_PER_SM=$b "${bench[@]}" --scaling strong --size 128 --exchanges coop,overlap --json "$out/strong128_b$b.json"
done
for b in 0 4; do
  echo "## weak 512, YEEX_COOP_BLOCKS_PER_SM=$b"
  YEEX_COOP_BLOCKS_PER_SM=$b "${bench[@]}" --scaling weak --size 512 --exchanges coop --json "$out/weak512_b$b.json"
done
echo "## strong 256 and 512, all co-resident"
"${bench[@]}" --scaling strong --size 256 512 --exchanges coop --json "$out/strong256_512.json"
