# The CUDA toolchain for YEEX_ENABLE_CUDA=ON: which nvcc, which GPU architectures, and those
# architectures as the code reports them (YEEX_CUDA_ARCHITECTURES_NAMES).

# The default (the `cuda` preset repeats it): real code for every architecture family CUDA 13
# compiles for, sm_75 (Turing) to sm_120 (Blackwell workstation), and PTX of the newest, which the
# driver JIT-compiles for later GPUs. Real code runs on its own major version at an equal or
# higher minor one, so sm_86 also covers 8.7 (Jetson Orin), sm_100 covers 10.3 (B300) and sm_120
# covers 12.1 (GB10). 11.0 (Jetson Thor) has none: build with `native` there.
set(YEEX_CUDA_PORTABLE_ARCHITECTURES "75-real;80-real;86-real;89-real;90-real;100-real;120")

# nvcc: CMAKE_CUDA_COMPILER or CUDACXX when given; else the one under CUDAToolkit_ROOT (a CMake or
# environment variable, as cluster modules set it; CMake alone would apply it to the libraries
# only, not to the compiler); else nvcc on PATH, then $CUDA_HOME/bin and /usr/local/cuda/bin.
if(NOT CMAKE_CUDA_COMPILER AND "$ENV{CUDACXX}" STREQUAL "")
  if(DEFINED CUDAToolkit_ROOT OR DEFINED ENV{CUDAToolkit_ROOT})
    find_program(YEEX_NVCC nvcc PATHS ${CUDAToolkit_ROOT} $ENV{CUDAToolkit_ROOT} PATH_SUFFIXES bin NO_DEFAULT_PATH)
    if(NOT YEEX_NVCC)
      message(FATAL_ERROR "CUDAToolkit_ROOT=${CUDAToolkit_ROOT}$ENV{CUDAToolkit_ROOT}: no bin/nvcc there")
    endif()
  else()
    find_program(YEEX_NVCC nvcc PATHS ENV CUDA_HOME /usr/local/cuda PATH_SUFFIXES bin)
  endif()
  mark_as_advanced(YEEX_NVCC)
  if(YEEX_NVCC)
    set(CMAKE_CUDA_COMPILER "${YEEX_NVCC}")
  endif()
endif()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "${YEEX_CUDA_PORTABLE_ARCHITECTURES}")
endif()
enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
find_package(CUDAToolkit REQUIRED)

# CMake's keywords resolved to the list they stand for.
set(YEEX_CUDA_ARCHITECTURES_RESOLVED "${CMAKE_CUDA_ARCHITECTURES}")
if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
  if(NOT CMAKE_CUDA_ARCHITECTURES_NATIVE)
    message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES=native, but this machine has no GPU that the CUDA runtime "
                        "sees: use the cuda preset (every architecture) or name them, e.g. "
                        "-DCMAKE_CUDA_ARCHITECTURES=86 (docs/building.md)")
  endif()
  set(YEEX_CUDA_ARCHITECTURES_RESOLVED "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
elseif(CMAKE_CUDA_ARCHITECTURES STREQUAL "all")
  set(YEEX_CUDA_ARCHITECTURES_RESOLVED "${CMAKE_CUDA_ARCHITECTURES_ALL}")
elseif(CMAKE_CUDA_ARCHITECTURES STREQUAL "all-major")
  set(YEEX_CUDA_ARCHITECTURES_RESOLVED "${CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR}")
endif()

# As nvcc names them, space-separated: sm_XX for real code, compute_XX for PTX ("86" is both,
# "86-real" the first, "86-virtual" the second).
set(YEEX_CUDA_ARCHITECTURES_NAMES "")
foreach(arch IN LISTS YEEX_CUDA_ARCHITECTURES_RESOLVED)
  if(arch MATCHES "^([0-9]+[a-z]?)-real$")
    list(APPEND YEEX_CUDA_ARCHITECTURES_NAMES "sm_${CMAKE_MATCH_1}")
  elseif(arch MATCHES "^([0-9]+[a-z]?)-virtual$")
    list(APPEND YEEX_CUDA_ARCHITECTURES_NAMES "compute_${CMAKE_MATCH_1}")
  elseif(arch MATCHES "^([0-9]+[a-z]?)$")
    list(APPEND YEEX_CUDA_ARCHITECTURES_NAMES "sm_${CMAKE_MATCH_1}" "compute_${CMAKE_MATCH_1}")
  else()
    message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES: cannot read '${arch}' (expected e.g. 86, 86-real, 86-virtual)")
  endif()
endforeach()
list(JOIN YEEX_CUDA_ARCHITECTURES_NAMES " " YEEX_CUDA_ARCHITECTURES_NAMES)
