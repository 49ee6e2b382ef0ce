#!/usr/bin/env bash
# GPU check of a build on a machine with NVIDIA GPUs: the gpu-labelled tests, the engines, the
# default deck on one GPU and on 4 slabs of it, a short benchmark, and every backend's fields.
#
#   scripts/gpu-check.sh [--build DIR] [--out DIR] [--sizes 128,256,512]
#
#   --build DIR   the build (default build/cuda-native, the `cuda-native` preset: code for this
#                 machine's GPUs; built here if it has no yeex)
#   --out DIR     where gpu-check.log (everything printed), the default deck's output and the
#                 bench JSON and markdown go (default build/gpu-check; its earlier files are replaced)
#   --sizes LIST  the cube edges of the float32 benchmark (default 128,256,512)
#
# Fails (exit 1) when a gpu test fails, the default deck on 4 slabs under coop or overlap gives
# another checksum than on one, or bench --verify finds a backend whose fields differ; exit 2 on
# bad options. About 4 minutes on 4 x H200.
set -euo pipefail
here=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { printf 'gpu-check: %s\n' "$*" >&2; exit 2; }
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$here/$1"; }

build=$root/build/cuda-native out=$root/build/gpu-check sizes=128,256,512
while (($#)); do
  case $1 in
    --build) (($# > 1)) || die "--build needs a folder"; build=$(absolute "$2"); shift 2 ;;
    --out) (($# > 1)) || die "--out needs a folder"; out=$(absolute "$2"); shift 2 ;;
    --sizes) (($# > 1)) || die "--sizes needs a list, e.g. 128,256,512"; sizes=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $sizes =~ ^[0-9]+([, ][0-9]+)*$ ]] || die "--sizes '$sizes': cube edges separated by commas, e.g. 128,256,512"
read -ra size_list <<< "${sizes//,/ }"

cd "$root"
mkdir -p "$out"
# Fresh output: yeex run refuses a folder that holds another run's files.
rm -rf "$out/dipole_box" "$out"/slabs1 "$out"/slabs4_* "$out"/bench_f32.* "$out"/bench_f64.*
exec > >(tee "$out/gpu-check.log") 2>&1
export NCCL_NVLS_ENABLE=0  # no NVLink multicast: the halos are point to point

section() { printf '\n## %s\n' "$*"; }

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "command: $0 --build $build --out $out --sizes $sizes"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv
nvidia-smi topo -m || true

if [[ ! -x $build/yeex ]]; then
  [[ $build == "$root/build/cuda-native" ]] || die "no yeex in $build"
  section "build ($build)"
  cmake --preset cuda-native -G Ninja && cmake --build "$build" -j"$(nproc)"
fi

section "gpu tests"
status=0
for test in "$build"/tests/gpu/test_*; do
  [[ -x $test && $test != *.cmake ]] || continue
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
"$build/yeex" bench --engine cuda --size "${size_list[@]}" --steps 100 --warmup 20 --repeats 5 --json "$out/bench_f32.json" \
  --markdown "$out/bench_f32.md"

section "every backend's fields after the warm-up: bench --verify, strong and weak 128^3, 1 and all GPUs"
"$build/yeex" bench --engine cuda --size 128 --scaling both --steps 20 --warmup 10 --repeats 3 --verify || status=1

section "benchmark: cuda engine, float64"
"$build/yeex" bench --engine cuda --precision f64 --size 512 --steps 50 --warmup 10 --repeats 5 --json "$out/bench_f64.json"

section "result"
if [[ $status -eq 0 ]]; then echo "gpu tests: PASS"; else echo "gpu tests: FAIL"; fi
exit $status
