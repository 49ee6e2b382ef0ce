// Owned CUDA events and streams for the exchange backends that order GPUs themselves (overlap,
// host-staged): created on a given GPU, destroyed with their owner. CUDA builds only; plain C++
// (no kernels), so .cpp files may include it.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <type_traits>

#include "kernels/cuda/cuda_check.hpp"

namespace yeex {

struct EventDeleter {
  void operator()(cudaEvent_t e) const { cudaEventDestroy(e); }
};
using Event = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, EventDeleter>;

struct StreamDeleter {
  void operator()(cudaStream_t s) const { cudaStreamDestroy(s); }
};
using Stream = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, StreamDeleter>;

// An event for ordering only (timing disabled: recording it costs less) on `device`; leaves
// `device` current.
inline Event make_event(int device) {
  YEEX_CUDA(cudaSetDevice(device));
  cudaEvent_t e = nullptr;
  YEEX_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return Event(e);
}

// A stream on `device` that does not synchronise with the legacy default stream; leaves `device`
// current.
inline Stream make_stream(int device) {
  YEEX_CUDA(cudaSetDevice(device));
  cudaStream_t s = nullptr;
  YEEX_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return Stream(s);
}

inline void record(const Event& event, cudaStream_t stream) { YEEX_CUDA(cudaEventRecord(event.get(), stream)); }
// Work enqueued on `stream` from now on waits for the record of `event` enqueued before this call
// (the event may belong to another GPU).
inline void wait(cudaStream_t stream, const Event& event) { YEEX_CUDA(cudaStreamWaitEvent(stream, event.get(), 0)); }

}  // namespace yeex
