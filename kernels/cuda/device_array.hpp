// Host-side helpers of the cuda engine and its device support: an owned device allocation and
// event-timed runs. Plain C++ over the CUDA runtime.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"

namespace yeex {

// Owned device allocation of n elements.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : n_(n) {
    if (n) YEEX_CUDA(cudaMalloc(&p_, n * sizeof(T)));
  }
  DeviceArray(const T* host, std::size_t n) : DeviceArray(n) {
    if (n) YEEX_CUDA(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() {
    if (p_) cudaFree(p_);
  }
  DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Milliseconds of each of `runs` calls of work(), which enqueues on `stream`, timed by CUDA events
// after `warmups` calls whose times are dropped.
template <typename Work>
std::vector<float> timed_runs_ms(cudaStream_t stream, int warmups, int runs, Work&& work) {
  cudaEvent_t start = nullptr, stop = nullptr;
  YEEX_CUDA(cudaEventCreate(&start));
  YEEX_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int run = 0; run < warmups + runs; ++run) {
    YEEX_CUDA(cudaEventRecord(start, stream));
    work();
    YEEX_CUDA(cudaEventRecord(stop, stream));
    YEEX_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    YEEX_CUDA(cudaEventElapsedTime(&t, start, stop));
    if (run >= warmups) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

}  // namespace yeex
