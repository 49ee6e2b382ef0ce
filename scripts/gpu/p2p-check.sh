#!/usr/bin/env bash
# yeex-p2p on a GPU machine: topology, every test (sweep 4 B .. 256 MiB), plots, and `yeex bench`
# with the exchange time the sweep predicts, on 4 GPUs at 256^3 (strong scaling). About 3-4
# minutes on 4x H200.
#
#   scripts/gpu/p2p-check.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR: default build/cuda, built beforehand with the `cuda` preset (this script does not
# build). OUT_DIR: default $OUT (the device tool's output folder), else results/p2p-check-DATE.
# Writes there: p2p-check.log (everything printed), nvidia-smi-topo.txt, topo.txt/topo.json,
# p2p.txt/p2p.json (the suite), plots/ (when matplotlib imports; otherwise plot later with
# scripts/plot_p2p.py p2p.json --out plots/), bench.txt/bench.json. Exit code: 0 when every step
# passed, 1 otherwise (every step still runs).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
build=${1:-build/cuda}
out=${2:-${OUT:-results/p2p-check-$(date -u +%Y%m%d)}}
mkdir -p "$out"
exec > >(tee "$out/p2p-check.log") 2>&1
export NCCL_NVLS_ENABLE=0  # NVLink SHARP reserves memory; these transfers are point to point
status=0
section() { printf '\n## %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
step() {  # step NAME TIMEOUT_S FILE COMMAND...: runs (output also into FILE unless -), reports, goes on
  local name=$1 limit=$2 file=$3
  shift 3
  local start=$SECONDS rc
  if [[ $file == - ]]; then
    timeout "$limit" "$@"
    rc=$?
  else
    timeout "$limit" "$@" | tee "$file"
    rc=${PIPESTATUS[0]}
  fi
  echo "# $name: exit $rc after $((SECONDS - start)) s"
  [[ $rc -eq 0 ]] || status=1
}

section "machine"
echo "command: $0 $*"
echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total,driver_version --format=csv || true
nvidia-smi topo -m | tee "$out/nvidia-smi-topo.txt" || true
for binary in yeex yeex-p2p tests/gpu/test_topology_gpu; do
  [[ -x $build/$binary ]] || { echo "missing $build/$binary: build with 'cmake --preset cuda && cmake --build build/cuda'"; exit 1; }
done

section "gpu test of the shared topology"
step topology-test 60 - "$build/tests/gpu/test_topology_gpu" --gtest_color=no

section "yeex-p2p topo (compare with nvidia-smi topo -m above)"
step topo 60 "$out/topo.txt" "$build/yeex-p2p" topo --json "$out/topo.json"

section "yeex-p2p --list"
step list 60 - "$build/yeex-p2p" --list

section "yeex-p2p: every test, sweep 4 B .. 256 MiB"
step suite 300 "$out/p2p.txt" "$build/yeex-p2p" --size 64M --sweep 4:256M --repeats 7 --json "$out/p2p.json"

section "bad input (expect exit 2)"
for args in "--size 0" "--size 1T" "--test nope" "--devices 99" "--size 4096G"; do
  # shellcheck disable=SC2086
  "$build/yeex-p2p" $args >/dev/null 2>&1
  rc=$?
  echo "yeex-p2p $args -> exit $rc"
  [[ $rc -eq 2 ]] || status=1
done

section "plots"
if [[ ! -s $out/p2p.json ]]; then
  echo "no p2p.json to plot"
elif python3 -c "import matplotlib" 2>/dev/null; then
  step plots 120 - python3 scripts/plot_p2p.py "$out/p2p.json" --out "$out/plots"
else
  echo "matplotlib not importable here: plot later with scripts/plot_p2p.py $out/p2p.json --out $out/plots"
fi

section "yeex bench, 4 GPUs, 256^3 strong, with the exchange time the sweep predicts"
if [[ -s $out/p2p.json ]]; then
  step bench 300 "$out/bench.txt" "$build/yeex" bench --engine cuda --size 256 --counts 1,2,4 --scaling strong \
    --steps 100 --warmup 20 --repeats 5 --p2p-json "$out/p2p.json" --json "$out/bench.json"
else
  echo "no p2p.json: bench skipped"
  status=1
fi

section "result"
if [[ $status -eq 0 ]]; then echo "p2p-check: PASS"; else echo "p2p-check: FAIL (see the exits above)"; fi
exit $status
