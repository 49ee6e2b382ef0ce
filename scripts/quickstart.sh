#!/usr/bin/env bash
# From a fresh clone to a first run: installs the packages the build needs (scripts/setup.sh build:
# no MPI, no ParaView; scripts/test.sh installs the rest), builds yeex (the `cuda-native` preset,
# code for this machine's GPUs, when a GPU and nvcc are usable here, else the CPU-only `host`
# preset) and runs the default problem, inputs/dipole_box.toml: a dipole in a PEC box with a
# dielectric block. Its output goes to
# yeex-output/dipole_box/; run again, the quickstart replaces its earlier run there (--force).
#
# Usage: scripts/quickstart.sh [yeex run options, e.g. --steps 100 --precision f64 --output DIR]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT DECK=inputs/dipole_box.toml CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
# shellcheck source=scripts/cmake-env.sh
source "$ROOT/scripts/cmake-env.sh"

section() { printf '\n=== %s\n' "$*"; }

# nvcc is often installed without being on PATH; the cuda presets need it there.
have_nvcc() {
  [[ -x "$CUDA_HOME/bin/nvcc" ]] && PATH="$CUDA_HOME/bin:$PATH"
  command -v nvcc >/dev/null 2>&1
}

# A driver that answers and lists at least one device; nvidia-smi alone can exist without a GPU.
have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '
}

choose_preset() {
  if have_gpu && have_nvcc; then
    echo cuda-native
  else
    echo host
  fi
}

# Ninja only for a fresh build folder: CMake refuses to switch the generator of an existing one.
build_preset() {
  local preset=$1 generator=()
  [[ -f "$ROOT/build/$preset/CMakeCache.txt" ]] || generator=(-G Ninja)
  cmake --preset "$preset" "${generator[@]}"
  cmake --build --preset "$preset" --parallel "$(nproc)"
}

# Where the run wrote its files: --output wins over the deck's output.directory, whose default
# is yeex-output/<the deck's file name without .toml>.
output_dir() {
  local previous='' arg directory
  for arg in "$@"; do
    [[ $previous == --output ]] && { echo "$arg"; return; }
    [[ $arg == --output=* ]] && { echo "${arg#--output=}"; return; }
    previous=$arg
  done
  directory=$(sed -n 's/^[[:space:]]*directory[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$DECK" | head -1)
  echo "${directory:-yeex-output/$(basename "$DECK" .toml)}"
}

# Whether the options include --force.
has_force() {
  local arg
  for arg in "$@"; do [[ $arg == --force ]] && return 0; done
  return 1
}

main() {
  cd "$ROOT"
  section "setup: the packages the build needs"
  "$ROOT/scripts/setup.sh" build
  yeex_cmake_path

  local preset
  preset=$(choose_preset)
  have_nvcc || true   # choose_preset ran in a subshell: put nvcc on this shell's PATH too
  if [[ $preset == host ]]; then
    echo "no usable GPU (nvidia-smi -L) or no nvcc: building the CPU-only host preset"
  fi

  section "build: $preset preset"
  build_preset "$preset"

  # A second quickstart replaces the first one's output: yeex refuses to write into a folder that
  # holds another run's files unless --force.
  local run=(run "$DECK")
  has_force "$@" || run+=(--force)
  run+=("$@")
  section "run: build/$preset/yeex ${run[*]}"
  "build/$preset/yeex" "${run[@]}"

  local out
  out=$(output_dir "$@")
  [[ $out == /* ]] || out="$ROOT/$out"
  section "done"
  echo "output in $out: run.json (timings, checksums), probes.h5,"
  echo "and *.xdmf snapshots that ParaView opens directly"
}

main "$@"
