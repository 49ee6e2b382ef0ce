#!/usr/bin/env bash
# Multi-GPU check: the gpu-labelled tests (every backend, 1..N GPUs, bitwise against one GPU),
# the backend list, and the scaling benchmark, on a machine with several NVIDIA GPUs.
#
#   scripts/scaling-check.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR defaults to build/cuda (the `cuda` preset). OUT_DIR (default
# results/scaling-DATE) receives scaling-check.log, one bench JSON per sweep and, where matplotlib
# is installed, their plots (plots/<sweep>/, scripts/plot_bench.py).
# The sweeps: strong scaling at each YEEX_STRONG_SIZES (default "128 256 512") and weak scaling at
# YEEX_WEAK_SIZE (default 512) per GPU, every backend; the same weak sweep and the largest strong
# one with peer access off (--no-peer: what the link is worth; backends that need peer access are
# listed as skipped, with the reason); and each GPU pair of YEEX_SUBSETS (default: the first and
# the last GPU, where there are 3 or more) at the middle strong size, so that the table shows the
# link between those two GPUs, not only the backend. YEEX_BENCH_STEPS (default 50),
# YEEX_SKIP_TESTS=1, YEEX_NO_PEER=0 (no --no-peer sweeps) and YEEX_SUBSETS="" (none) change what
# runs.
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
  "${bench[@]}" --scaling strong --size "$size" --json "$out/bench_strong_${size}.json" --markdown "$out/bench_strong_${size}.md" || status=1
done
weak=${YEEX_WEAK_SIZE:-512}
section "weak scaling, ${weak}^3 per GPU"
"${bench[@]}" --scaling weak --size "$weak" --json "$out/bench_weak_${weak}.json" --markdown "$out/bench_weak_${weak}.md" || status=1

read -ra strong_sizes <<< "${YEEX_STRONG_SIZES:-128 256 512}"
if [[ ${YEEX_NO_PEER:-1} != 0 ]]; then
  largest=${strong_sizes[-1]}
  section "peer access off (--no-peer): weak ${weak}^3 per GPU, strong ${largest}^3"
  "${bench[@]}" --no-peer --scaling weak --size "$weak" --json "$out/bench_nopeer_weak_${weak}.json" --markdown "$out/bench_nopeer_weak_${weak}.md" || status=1
  "${bench[@]}" --no-peer --scaling strong --size "$largest" --json "$out/bench_nopeer_strong_${largest}.json" --markdown "$out/bench_nopeer_strong_${largest}.md" || status=1
fi

gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
default_subsets=""
((gpus >= 3)) && default_subsets="0,$((gpus - 1))"
middle=${strong_sizes[$(((${#strong_sizes[@]} - 1) / 2))]}
for subset in ${YEEX_SUBSETS-$default_subsets}; do
  section "GPUs $subset: strong ${middle}^3"
  "${bench[@]}" --devices "$subset" --scaling strong --size "$middle" \
    --json "$out/bench_gpus_${subset//,/_}_strong_${middle}.json" || status=1
done

if python3 -c 'import matplotlib' 2> /dev/null; then
  section "plots"
  for json in "$out"/bench_*.json; do
    python3 scripts/plot_bench.py "$json" --out "$out/plots/$(basename "$json" .json)" || status=1
  done
else
  echo "(no plots: python3 with matplotlib is not installed here; scripts/plot_bench.py draws them from the JSON)"
fi

section "result"
if [[ $status -eq 0 ]]; then echo "scaling check: PASS"; else echo "scaling check: FAIL"; fi
exit $status
