#!/usr/bin/env bash
# Installs the system packages yeex needs to build and test, on Debian 12 (bookworm) or a close
# relative. Safe to run again: it asks dpkg first and only calls apt-get for what is missing, so a
# machine that already has everything costs well under a second and changes nothing.
#
# Usage: scripts/setup.sh
#
# CUDA is not installed here: the cuda preset expects nvcc under /usr/local/cuda (or on PATH).
set -euo pipefail

# Minimum CMake: CMakePresets.json is version 6, which needs 3.25 (Debian 12 ships 3.25.1).
readonly CMAKE_MIN=3.25

# Compiler, build tools and the libraries CMakeLists.txt looks for; MPI and the HDF5 command-line
# tools (h5dump, h5ls) are for the MPI mode and for inspecting output files.
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libhdf5-dev hdf5-tools
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev
  libopenmpi-dev openmpi-bin
)

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

# The first cmake on PATH is the one the other scripts use; it may come from pip or pyenv rather
# than from the Debian package, so check its version rather than trusting the package.
check_cmake() {
  command -v cmake >/dev/null 2>&1 || die "no cmake on PATH after installing the cmake package"
  local version
  version=$(cmake --version | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p')
  if [[ "$(printf '%s\n%s\n' "$CMAKE_MIN" "$version" | sort -V | head -1)" != "$CMAKE_MIN" ]]; then
    die "cmake $version at $(command -v cmake) is older than $CMAKE_MIN (needed by CMakePresets.json);" \
        "get a newer one with: python3 -m pip install --user 'cmake>=$CMAKE_MIN' and put ~/.local/bin first on PATH"
  fi
  log "cmake $version ($(command -v cmake))"
}

main() {
  command -v dpkg-query >/dev/null 2>&1 \
    || die "dpkg-query not found: this script supports Debian/Ubuntu; install the packages listed in it by hand"
  add_python_packages
  install_missing
  check_cmake
}

main "$@"
