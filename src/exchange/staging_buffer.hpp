// Host memory for staging halo planes: page-locked when the build has CUDA and a GPU is visible
// (device copies run at full speed and asynchronously), ordinary memory otherwise.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {

template <typename Real>
class StagingBuffer {
 public:
  explicit StagingBuffer(std::size_t count) : count_(count) {
#if YEEX_HAVE_CUDA
    pinned_ = cuda_device_count() > 0;
    if (pinned_) {
      data_ = static_cast<Real*>(allocate_pinned(count * sizeof(Real)));
      return;
    }
#endif
    data_ = static_cast<Real*>(::operator new(count * sizeof(Real)));
  }
  ~StagingBuffer() {
#if YEEX_HAVE_CUDA
    if (pinned_) {
      free_pinned(data_);
      return;
    }
#endif
    ::operator delete(data_);
  }
  StagingBuffer(StagingBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(o.count_), pinned_(o.pinned_) {}
  StagingBuffer& operator=(StagingBuffer&&) = delete;
  StagingBuffer(const StagingBuffer&) = delete;

  Real* data() { return data_; }
  std::size_t size() const { return count_; }

 private:
  Real* data_ = nullptr;
  std::size_t count_ = 0;
  bool pinned_ = false;
};

}  // namespace yeex
