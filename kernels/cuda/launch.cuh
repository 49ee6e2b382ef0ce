// How the cuda engine launches its kernels: programmatic dependent launches where the device has
// them (launch_kernel), and the wait every engine kernel starts with (follow_previous_kernel).
// Included by cuda_engine.cu's translation unit only.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "decomposition/grid.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace yeex {
namespace {

// Programmatic dependent launch (compute capability 9.0 and later; launch_kernel): a kernel
// launched with it is scheduled as the blocks of the kernel ahead of it on its stream exit,
// without the gap of a launch that waits for that kernel's completion. Each engine kernel therefore
// first waits here until the kernels ahead of it have completed and their stores are visible (at
// once for a kernel launched without it; compiled to nothing for older architectures, where the
// engine launches plainly). None signals its dependents earlier (griddepcontrol.launch_dependents):
// executed by every block, that slows the large sweeps (docs/performance.md#dependent-launches).
__device__ __forceinline__ void follow_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Programmatic dependent launches (launch_kernel) where the device has them: compute capability
// 9.0 and later (docs/performance.md#dependent-launches); `wanted` false (a test seam) takes plain
// launches everywhere. The reason goes into the engine's choices.
// A kernel compiled like every engine kernel, whose attributes tell which code the device runs.
__global__ void dependent_launch_probe_kernel() { follow_previous_kernel(); }

bool dependent_launch(int device, bool wanted, std::string& why) {
  int major = 0, minor = 0;
  YEEX_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  YEEX_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const std::string cc = "compute capability " + std::to_string(major) + "." + std::to_string(minor);
  if (!wanted) {
    why = "plain launches (dependent launches turned off)";
    return false;
  }
  if (major < 9) {
    why = "plain launches (" + cc + ": dependent launches need 9.0)";
    return false;
  }
  // The kernels wait for the ones ahead of them only where they were compiled for 9.0 or later
  // (follow_previous_kernel): a binary that runs older code on this device, PTX for compute_80
  // compiled at load time say, must launch plainly, or a kernel could read what the one ahead of
  // it has not yet written.
  int current = -1;
  YEEX_CUDA(cudaGetDevice(&current));
  YEEX_CUDA(cudaSetDevice(device));
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, dependent_launch_probe_kernel);
  YEEX_CUDA(cudaSetDevice(current));
  YEEX_CUDA(status);
  if (attributes.ptxVersion < 90) {
    why = "plain launches (" + cc + ", but this binary's code for it is compiled for compute_" +
          std::to_string(attributes.ptxVersion) + ": dependent launches need code for 9.0)";
    return false;
  }
  why = "dependent launches (" + cc + ")";
  return true;
}

// Every engine kernel goes through here: with `dependent` (dependent_launch()) as a programmatic
// dependent launch (follow_previous_kernel), else as a plain one; `shared` bytes of dynamic shared
// memory a block.
template <typename... Params, typename... Args>
void launch_kernel_shared(bool dependent, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared,
                          cudaStream_t on, Args&&... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid, config.blockDim = block, config.dynamicSmemBytes = shared, config.stream = on;
  config.attrs = &attribute, config.numAttrs = dependent ? 1 : 0;
  YEEX_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}
template <typename... Params, typename... Args>
void launch_kernel(bool dependent, void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t on, Args&&... args) {
  launch_kernel_shared(dependent, kernel, grid, block, 0, on, std::forward<Args>(args)...);
}

// Blocks of b along n nodes.
unsigned blocks(Index n, unsigned b) { return static_cast<unsigned>((n + b - 1) / b); }

}  // namespace
}  // namespace yeex
