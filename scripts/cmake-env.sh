# Sourced by the build scripts: puts the CMake that scripts/setup.sh chose first on PATH.
# YEEX_CMAKE_MIN is CMakeLists.txt's cmake_minimum_required, the one place it is stated (CUDA
# builds need it for nvcc's C++20 flag). Debian 12 ships an older CMake, so setup.sh installs a
# newer one from PyPI into build/tools/cmake when the cmake on PATH is older. Expects ROOT (the
# repository root) to be set.
YEEX_CMAKE_MIN=$(sed -n 's/^cmake_minimum_required(VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
readonly YEEX_CMAKE_MIN

yeex_cmake_path() {
  if [[ -x "$ROOT/build/tools/cmake/bin/cmake" ]]; then
    PATH="$ROOT/build/tools/cmake/bin:$PATH"
    export PATH
  fi
}
