// Whether this build holds code for a GPU: a binary built for other architectures cannot run a
// kernel there, and the first launch would fail with a bare "no kernel image" error. The engine and
// `yeex engines` ask here first and name the GPU, its compute capability, the architectures the
// build holds and the CMake line that builds for it.
#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda/cuda_engine.hpp"

// The CMAKE_CUDA_ARCHITECTURES of the build, where CMake passes it; else nvcc's own list.
#ifndef YEEX_CUDA_ARCHITECTURES
#define YEEX_CUDA_ARCHITECTURES "unknown"
#endif

namespace yeex {
namespace {

// A kernel with no work: cudaFuncGetAttributes on it fails with cudaErrorNoKernelImageForDevice
// on a GPU the build has neither machine code nor PTX for.
__global__ void probe_kernel() {}

}  // namespace

std::string cuda_build_architectures() {
  const std::string configured = YEEX_CUDA_ARCHITECTURES;
  if (configured != "unknown") return configured;
#if defined(__CUDA_ARCH_LIST__)
  constexpr int listed[] = {__CUDA_ARCH_LIST__};  // e.g. 750, 800, 900
  std::string list;
  for (int arch : listed) list += (list.empty() ? "" : ";") + std::to_string(arch / 10);
  return list;
#else
  return configured;
#endif
}

int cuda_multiprocessor_count(int device) {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) cudaGetLastError();
  return sms;
}

std::string cuda_device_unsupported(int device) {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) {
    cudaGetLastError();
    return "no usable CUDA device";
  }
  cudaFuncAttributes attributes{};
  cudaError_t status = cudaSetDevice(device);
  if (status == cudaSuccess) status = cudaFuncGetAttributes(&attributes, probe_kernel);
  cudaGetLastError();  // clear it: the answer is the message
  cudaSetDevice(previous);
  if (status == cudaSuccess) return "";
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return "GPU " + std::to_string(device) + ": " + cudaGetErrorString(status);
  }
  const std::string cc = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  const std::string arch = std::to_string(prop.major) + std::to_string(prop.minor);
  if (status != cudaErrorNoKernelImageForDevice && status != cudaErrorInvalidDeviceFunction)
    return "GPU " + std::to_string(device) + " (" + prop.name + ", compute capability " + cc +
           "): " + cudaGetErrorString(status);
  return "this build has no code for GPU " + std::to_string(device) + " (" + prop.name + ", compute capability " + cc +
         "): it holds CUDA architectures " + cuda_build_architectures() +
         "; rebuild for this GPU with `cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=" + arch +
         "` (or the cuda-native preset, for the GPUs of the machine that builds)";
}

}  // namespace yeex
