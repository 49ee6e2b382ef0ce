#!/usr/bin/env bash
# Multi-GPU check: the gpu-labelled tests (every backend, 1..N GPUs, bitwise against one GPU),
# the backend list, and the scaling benchmark, on a machine with several NVIDIA GPUs.
#
#   scripts/scaling-check.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR defaults to build/cuda (the `cuda` preset). OUT_DIR (default
# results/scaling-DATE) receives scaling-check.log and one bench JSON per scaling.
# YEEX_STRONG_SIZES (default "128 256 512"), YEEX_WEAK_SIZE (default 512), YEEX_BENCH_STEPS
# (default 50) and YEEX_SKIP_TESTS=1 change what runs.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/cuda}
out=${2:-results/scaling-$(date -u +%Y%m%d)}
mkdir -p "$out"
exec > >(tee "$out/scaling-check.log") 2>&1
export NCCL_NVLS_ENABLE=0  # never NVLink multicast on shared machines

section() { printf '\n## %s\n' "$*"; }
steps=${YEEX_BENCH_STEPS:-50}
bench=("$build/yeex" bench --engine cuda --steps "$steps" --warmup 10 --repeats 5)

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "command: $0 $*"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv
nvidia-smi topo -m || true

status=0
if [[ ${YEEX_SKIP_TESTS:-0} != 1 ]]; then
  section "gpu tests"
  for test in "$build"/tests/gpu/test_*; do
    [[ -x $test && ! $test == *.cmake ]] || continue
    "$test" --gtest_color=no --gtest_brief=1 || status=1
  done
fi

section "exchange backends"
"$build/yeex" exchanges --engine cuda

for size in ${YEEX_STRONG_SIZES:-128 256 512}; do
  section "strong scaling, ${size}^3 total"
  "${bench[@]}" --scaling strong --size "$size" --json "$out/bench_strong_${size}.json" || status=1
done
weak=${YEEX_WEAK_SIZE:-512}
section "weak scaling, ${weak}^3 per GPU"
"${bench[@]}" --scaling weak --size "$weak" --json "$out/bench_weak_${weak}.json" || status=1

section "result"
if [[ $status -eq 0 ]]; then echo "scaling check: PASS"; else echo "scaling check: FAIL"; fi
exit $status
