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
# A build folder configured before Open MPI was installed (scripts/quickstart.sh installs only the
# build group) remembers that no MPI was found: forget that, so that MPI mode is built now.
configure() {
  local cache="$ROOT/build/$PRESET/CMakeCache.txt" args=()
  if [[ ! -f $cache ]]; then
    args=(-G Ninja)
  elif grep -q '^MPI_C_COMPILER:FILEPATH=.*NOTFOUND' "$cache"; then
    args=(-U 'MPI_*')
  fi
  cmake --preset "$PRESET" "${args[@]}"
}

main() {
  cd "$ROOT"
  section "setup: system packages (every group: build, mpi, tools, pictures)"
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
