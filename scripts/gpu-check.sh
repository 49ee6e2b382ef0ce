#!/usr/bin/env bash
# GPU check: the gpu-labelled tests and a short benchmark on a machine with NVIDIA GPUs.
#
#   scripts/gpu-check.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR defaults to build/cuda (built with the `cuda` preset; it is built here if missing).
# Everything printed is also written to OUT_DIR (default results/gpu-check-DATE) as
# gpu-check.log, with bench JSON and markdown beside it. Set YEEX_BENCH_SIZES to change the
# benchmark sizes. Fails when a gpu test fails, a split changes the default deck's checksum, or
# bench --verify finds a backend whose fields differ.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/cuda}
out=${2:-results/gpu-check-$(date -u +%Y%m%d)}
mkdir -p "$out"
exec > >(tee "$out/gpu-check.log") 2>&1
export NCCL_NVLS_ENABLE=0

section() { printf '\n## %s\n' "$*"; }

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "command: $0 $*"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
nvidia-smi topo -m || true

if [[ ! -x $build/yeex ]]; then
  section "build ($build)"
  cmake --preset cuda -G Ninja && cmake --build "$build" -j"$(nproc)"
fi

section "gpu tests"
status=0
for test in "$build"/tests/gpu/test_*; do
  [[ -x $test ]] || continue
  "$test" --gtest_color=no || status=1
done

section "engines"
"$build/yeex" engines

section "default deck on the cuda engine"
"$build/yeex" run inputs/dipole_box.toml --engine cuda --force --output "$out/dipole_box"

section "default deck on 4 slabs of GPU 0 (coop, then overlap): the one-GPU checksum"
one=$("$build/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --quiet --json --force --output "$out/slabs1" | grep -A6 '"checksum"')
for exchange in coop overlap; do
  four=$("$build/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --subdomains 4 --exchange "$exchange" --quiet --json \
    --force --output "$out/slabs4_$exchange" | grep -A6 '"checksum"')
  if [[ $four == "$one" ]]; then echo "$exchange on 4 slabs: the same checksum"; else echo "$exchange on 4 slabs: DIFFERENT checksum"; status=1; fi
done
rm -rf "$out"/slabs1 "$out"/slabs4_*

section "benchmark: cuda engine, float32"
sizes=${YEEX_BENCH_SIZES:-"128 256 512"}
# shellcheck disable=SC2086
"$build/yeex" bench --engine cuda --size $sizes --steps 100 --warmup 20 --repeats 5 --json "$out/bench_f32.json" \
  --markdown "$out/bench_f32.md"

section "every backend's fields after the warm-up: bench --verify, strong and weak 128^3, 1 and all GPUs"
"$build/yeex" bench --engine cuda --size 128 --scaling both --steps 20 --warmup 10 --repeats 3 --verify || status=1

section "benchmark: cuda engine, float64"
"$build/yeex" bench --engine cuda --precision f64 --size 512 --steps 50 --warmup 10 --repeats 5 --json "$out/bench_f64.json"

section "result"
if [[ $status -eq 0 ]]; then echo "gpu tests: PASS"; else echo "gpu tests: FAIL"; fi
exit $status
