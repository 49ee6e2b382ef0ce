#!/usr/bin/env bash
# CPML check on a GPU machine: the CPML GPU tests and the performance target of issue 5
# (512^3 with 10-cell CPML on all six faces within 10 % of the PEC run's Gcells/s, one GPU).
#
#   OUT=/some/folder scripts/gpu/cpml-check.sh [BUILD_DIR]
#
# BUILD_DIR (default build/cuda) must already hold a build of the `cuda` preset. Everything goes
# to $OUT (default results/cpml-check-DATE): cpml-check.log (all output), gtest XML, and the two
# bench JSON files. About 3-4 minutes of GPU time; exit status non-zero if a test failed or the
# CPML run is more than 10 % slower. YEEX_CPML_SIZE changes the cube edge (default 512).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/cuda}
out=${OUT:-results/cpml-check-$(date -u +%Y%m%d)}
size=${YEEX_CPML_SIZE:-512}
mkdir -p "$out"
exec > >(tee "$out/cpml-check.log") 2>&1
export NCCL_NVLS_ENABLE=0

section() { printf '\n## %s\n' "$*"; }
[[ -x $build/yeex ]] || { echo "no $build/yeex: build the cuda preset first"; exit 2; }

section "machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv || true

status=0
if [[ ${YEEX_CPML_SKIP_TESTS:-0} != 1 ]]; then  # run-all.sh runs every gpu test once itself
section "gpu tests with CPML: cuda vs host (f32 rel L2 <= 1e-5, f64 <= 1e-12)"
"$build/tests/gpu/test_cuda_engine" --gtest_color=no --gtest_filter='*Cpml*' \
  --gtest_output="xml:$out/test_cuda_engine_cpml.xml" || status=1

section "gpu tests with CPML: every backend x 1-4 GPUs bitwise against one GPU"
"$build/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_filter='*Cpml*' \
  --gtest_output="xml:$out/test_multi_gpu_cpml.xml" || status=1
fi

bench() {  # $1 = name, $2 = CPML cells (0: PEC)
  "$build/yeex" bench --engine cuda --gpus 1 --counts 1 --size "$size" --steps 100 --warmup 20 --repeats 5 --exchanges coop \
    --cpml "$2" --json "$out/bench_$1.json"
}
section "benchmark: ${size}^3, one GPU, float32, PEC walls"
bench pec 0
section "benchmark: ${size}^3, one GPU, float32, 10-cell CPML on all six faces"
bench cpml 10

if [[ ${YEEX_CPML_NCU:-0} == 1 ]] && command -v ncu > /dev/null; then
  # One H and one E sweep of the CPML run: the plain kernel over the interior, then the CPML
  # kernel over each shell box (kernels/cpml.hpp, the split sweep): 2 x 7 launches.
  section "Nsight Compute: the split CPML sweep's launches (first H and E half-steps)"
  ncu --section SpeedOfLight --section Occupancy --section LaunchStats -k regex:yee_sweep -c 14 \
    "$build/yeex" bench --engine cuda --gpus 1 --counts 1 --size "$size" --steps 2 --warmup 1 --repeats 1 \
    --exchanges p2p --cpml 10 || true
fi

section "summary"
if ! command -v python3 > /dev/null; then
  grep -H '"gcells_per_s"' "$out"/bench_*.json || true
  echo "no python3: compare the Gcells/s above by hand (target: cpml >= 0.9 x pec)"
  exit $status
fi
python3 - "$out/bench_pec.json" "$out/bench_cpml.json" <<'PY' || status=1
import json, sys
pec, cpml = (json.load(open(p))["rows"][0]["gcells_per_s"] for p in sys.argv[1:3])
print(f"PEC   {pec:8.2f} Gcells/s")
print(f"CPML  {cpml:8.2f} Gcells/s  ({100 * cpml / pec:.1f} % of PEC)")
ratio = cpml / pec
print(f"performance target (CPML >= 90 % of PEC): {'PASS' if ratio >= 0.9 else 'FAIL'}")
sys.exit(0 if ratio >= 0.9 else 1)
PY
if [[ $status -eq 0 ]]; then echo "cpml check: PASS"; else echo "cpml check: FAIL"; fi
echo "output in $out"
exit $status
