#!/usr/bin/env bash
# Builds the CPU-only `host` preset and runs the tests labelled `cpu` (unit tests and the
# integration tests that run the yeex binary), then those labelled `mpi` (the yeex binary under
# mpirun, several ranks on this machine; setup.sh installs Open MPI, so the host preset builds MPI
# mode). No GPU needed; this is what CI runs first. Exits non-zero when the build or any test
# fails.
#
# Usage: scripts/test.sh [extra ctest arguments, e.g. -R deck -V]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT PRESET=host
# shellcheck source=scripts/cmake-env.sh
source "$ROOT/scripts/cmake-env.sh"

section() { printf '\n=== %s\n' "$*"; }

# Ninja only for a fresh build folder: CMake refuses to switch the generator of an existing one.
configure() {
  local generator=()
  [[ -f "$ROOT/build/$PRESET/CMakeCache.txt" ]] || generator=(-G Ninja)
  cmake --preset "$PRESET" "${generator[@]}"
}

main() {
  cd "$ROOT"
  section "setup: system packages"
  "$ROOT/scripts/setup.sh"
  yeex_cmake_path

  section "configure: cmake --preset $PRESET"
  configure

  section "build: $PRESET"
  cmake --build --preset "$PRESET" --parallel "$(nproc)"

  # The test preset selects the `cpu` label and prints the output of failing tests;
  # --no-tests=error turns an empty selection (a broken CTest setup) into a failure.
  section "test: ctest --preset $PRESET (label cpu)"
  ctest --preset "$PRESET" --no-tests=error "$@"

  # An empty selection is an error here too (a build without MPI mode: configure found no MPI
  # library), unless extra arguments (e.g. -R deck) chose the tests.
  section "test: ctest --preset $PRESET-mpi (label mpi: the yeex binary under mpirun -np 2..4)"
  local empty=error
  (($#)) && empty=ignore
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
  ctest --preset "$PRESET-mpi" --no-tests="$empty" "$@"

  section "all cpu and mpi tests passed"
}

main "$@"
