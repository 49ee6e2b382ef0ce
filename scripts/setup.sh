#!/usr/bin/env bash
# Installs the system packages yeex needs, on Debian 12 (bookworm) or a close relative, by group:
#
#   build     compiler, CMake, Ninja and the libraries the build links (HDF5, CLI11, toml++,
#             nlohmann-json, GoogleTest): enough to build yeex and run it (scripts/quickstart.sh)
#   mpi       Open MPI: MPI mode (yeex under mpirun) and its tests
#   tools     the HDF5 command-line tools (h5dump, h5ls), to look inside output files
#   pictures  matplotlib and h5py (scripts/render_snapshot.py, plot_probes.py, plot_bench.py,
#             plot_p2p.py), and ParaView for the test that opens the snapshots' XDMF with its
#             reader; by far the largest group
#   browser   Chromium, headless: the test that opens yeex survey's report.html
#   fuzz      clang with libFuzzer and its OpenMP, for the fuzz preset (the deck fuzzer; CI's fuzz
#             stage); not part of "all"
#
# Usage: scripts/setup.sh [GROUP...]    (no group: build mpi tools pictures browser, what scripts/test.sh needs)
#
# Safe to run again: it asks dpkg first and only calls apt-get for what is missing, so a machine
# that already has everything costs well under a second and changes nothing. CUDA is not installed
# here: the cuda preset expects nvcc under /usr/local/cuda (or on PATH).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/cmake-env.sh
source "$ROOT/scripts/cmake-env.sh"

readonly GROUPS_ALL=(build mpi tools pictures browser) GROUPS_EXTRA=(fuzz)
group_packages() {
  case $1 in
    build) echo build-essential cmake ninja-build pkg-config libhdf5-dev libcli11-dev libtomlplusplus-dev \
                nlohmann-json3-dev libgtest-dev libgmock-dev ;;
    mpi) echo libopenmpi-dev openmpi-bin ;;
    tools) echo hdf5-tools ;;
    pictures) echo paraview python3-paraview python3-matplotlib python3-h5py ;;
    browser) echo chromium ;;
    fuzz) echo clang-16 libclang-rt-16-dev libomp-16-dev ;;
    *) return 1 ;;
  esac
}
PACKAGES=()

log() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" == installed ]]
}

# A Python from elsewhere (pyenv, conda, a module) is fine: only install Debian's when there is
# none, so setup never puts a second interpreter in front of the one the user chose.
add_python_packages() {
  if ! command -v python3 >/dev/null 2>&1; then
    PACKAGES+=(python3 python3-pip python3-venv)
  elif ! python3 -m pip --version >/dev/null 2>&1; then
    PACKAGES+=(python3-pip)
  fi
}

# Run as root directly; otherwise through sudo (CI images and containers are often root-only).
as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "not root and no sudo: run this script as root"
  fi
}

install_missing() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    is_installed "$pkg" || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    log "all ${#PACKAGES[@]} packages already installed, nothing to do"
    return
  fi
  log "installing: ${missing[*]}"
  # The package lists of a fresh image are often empty or stale: refresh them only when needed.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  log "installed ${#missing[@]} package(s)"
}

# The first cmake on PATH (after yeex_cmake_path) is the one the other scripts use; it may come
# from pip or pyenv rather than from the Debian package, so check its version. When it is older
# than YEEX_CMAKE_MIN, install a newer one from PyPI into build/tools/cmake (a venv).
cmake_version() { cmake --version | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p'; }
new_enough() { [[ "$(printf '%s\n%s\n' "$YEEX_CMAKE_MIN" "$1" | sort -V | head -1)" == "$YEEX_CMAKE_MIN" ]]; }

check_cmake() {
  yeex_cmake_path
  command -v cmake >/dev/null 2>&1 || die "no cmake on PATH after installing the cmake package"
  if ! new_enough "$(cmake_version)"; then
    log "cmake $(cmake_version) is older than $YEEX_CMAKE_MIN: installing one from PyPI into build/tools/cmake"
    python3 -m venv "$ROOT/build/tools/cmake" \
      || die "python3 -m venv failed (install python3-venv), or put a cmake >= $YEEX_CMAKE_MIN first on PATH"
    "$ROOT/build/tools/cmake/bin/python" -m pip install --quiet "cmake>=$YEEX_CMAKE_MIN" \
      || die "could not install cmake>=$YEEX_CMAKE_MIN from PyPI"
    yeex_cmake_path
  fi
  new_enough "$(cmake_version)" || die "cmake $(cmake_version) at $(command -v cmake) is older than $YEEX_CMAKE_MIN"
  log "cmake $(cmake_version) ($(command -v cmake))"
}

main() {
  local groups=("$@") group
  ((${#groups[@]})) || groups=("${GROUPS_ALL[@]}")
  for group in "${groups[@]}"; do
    # shellcheck disable=SC2207  # package names have no spaces
    PACKAGES+=($(group_packages "$group")) || die "unknown group '$group' (the groups: ${GROUPS_ALL[*]} ${GROUPS_EXTRA[*]})"
  done
  command -v dpkg-query >/dev/null 2>&1 \
    || die "dpkg-query not found: this script supports Debian/Ubuntu; install the packages listed in it by hand"
  add_python_packages
  install_missing
  check_cmake
}

main "$@"
