// The device support of the cuda build: whether it holds code for a GPU, peer access, pinned host
// memory, device facts and the device copy bandwidth.
//
// Whether this build holds code for a GPU: a binary built for other architectures cannot run a
// kernel there, and the first launch would fail with a bare "no kernel image" error. The engine and
// `yeex engines` ask here first and name the GPU, its compute capability, the architectures the
// build holds and the CMake line that builds for it.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "kernels/cuda/device_array.hpp"

// The CMAKE_CUDA_ARCHITECTURES of the build, where CMake passes it; else nvcc's own list.
#ifndef YEEX_CUDA_ARCHITECTURES
#define YEEX_CUDA_ARCHITECTURES "unknown"
#endif

namespace yeex {
namespace {

// A kernel with no work: cudaFuncGetAttributes on it fails with cudaErrorNoKernelImageForDevice
// on a GPU the build has neither machine code nor PTX for.
__global__ void probe_kernel() {}

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}

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

bool can_access_peer(int a, int b) {
  int yes = 0;
  return a == b || (cudaDeviceCanAccessPeer(&yes, a, b) == cudaSuccess && yes);
}

void enable_peer_access(int a, int b) {
  if (a == b) return;
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    YEEX_CUDA(cudaSetDevice(from));
    const cudaError_t status = cudaDeviceEnablePeerAccess(to, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled)
      cudaGetLastError();  // clear it: already on is what we want
    else
      YEEX_CUDA(status);
  }
}

void set_peer_access(int a, int b, bool on) {
  if (on) return enable_peer_access(a, b);
  if (a == b) return;
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    YEEX_CUDA(cudaSetDevice(from));
    const cudaError_t status = cudaDeviceDisablePeerAccess(to);
    if (status == cudaErrorPeerAccessNotEnabled)
      cudaGetLastError();  // already off
    else
      YEEX_CUDA(status);
  }
}

void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  YEEX_CUDA(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
  return p;
}
void free_pinned(void* p) {
  if (p) cudaFreeHost(p);
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

std::string cuda_device_name(int device) {
  cudaDeviceProp prop{};
  YEEX_CUDA(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

void cuda_memory_info(int device, std::size_t& free_bytes, std::size_t& total_bytes) {
  YEEX_CUDA(cudaSetDevice(device));
  YEEX_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
}

namespace {
std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
}  // namespace

std::string cuda_runtime_version() {
  int v = 0;
  return cudaRuntimeGetVersion(&v) == cudaSuccess ? version_string(v) : "unknown";
}
std::string cuda_driver_version() {
  int v = 0;
  return cudaDriverGetVersion(&v) == cudaSuccess && v > 0 ? version_string(v) : "none";
}

double measure_device_copy_bandwidth(int device, std::size_t bytes) {
  YEEX_CUDA(cudaSetDevice(device));
  const std::size_t n = bytes / sizeof(float4);
  DeviceArray<float4> a(n), b(n);
  YEEX_CUDA(cudaMemset(a.get(), 1, n * sizeof(float4)));
  // Median of 10 timed copies after 2 warm-ups, for a copy kernel (one float4 per thread) and
  // for cudaMemcpy; the better of the two is the device's copy bandwidth.
  const auto median_ms = [&](auto copy) {
    std::vector<float> ms = timed_runs_ms(nullptr, 2, 10, copy);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
  };
  const float kernel_ms = median_ms([&] {
    copy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(a.get(), b.get(), n);
    YEEX_CUDA(cudaGetLastError());
  });
  const float memcpy_ms =
      median_ms([&] { YEEX_CUDA(cudaMemcpyAsync(b.get(), a.get(), n * sizeof(float4), cudaMemcpyDeviceToDevice)); });
  return 2.0 * n * sizeof(float4) / (std::min(kernel_ms, memcpy_ms) * 1e-3) / 1e9;
}

}  // namespace yeex
