# Sourced by the build scripts: puts the CMake that scripts/setup.sh chose first on PATH.
# CUDA 13 with C++20 needs CMake >= 3.28 (older versions do not know nvcc's C++20 dialect);
# Debian 12 ships 3.25, so setup.sh installs a newer one from PyPI into build/tools/cmake when
# the cmake on PATH is older. Expects ROOT (the repository root) to be set.
readonly YEEX_CMAKE_MIN=3.28

yeex_cmake_path() {
  if [[ -x "$ROOT/build/tools/cmake/bin/cmake" ]]; then
    PATH="$ROOT/build/tools/cmake/bin:$PATH"
    export PATH
  fi
}
