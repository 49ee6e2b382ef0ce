// The shared measuring harness of yeex-p2p (CUDA builds only). The rules every figure follows,
// written once here:
//   - one untimed-for-the-result warm-up, then `repeats` timed repeats; the median is reported;
//   - a repeat is timed with two CUDA events on one stream around the transfer(s) alone;
//   - before each repeat the source is filled with a pattern that depends on the size and the
//     repeat index, after it the destination is checked on its GPU: a wrong byte throws;
//   - GB/s = 1e9 bytes per second; matrices are dst x src (rows = destination GPU).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <functional>
#include <string>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "src/p2p/options.hpp"
#include "src/p2p/p2p_test.hpp"

namespace yeex::p2p {

class DeviceBuffer {
 public:
  DeviceBuffer(int device, std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return data_; }
  int device() const { return device_; }

 private:
  int device_;
  void* data_ = nullptr;
};

class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes) : data_(allocate_pinned(bytes)) {}
  ~PinnedBuffer() { free_pinned(data_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return data_; }

 private:
  void* data_;
};

// A non-blocking stream on one GPU.
class Stream {
 public:
  explicit Stream(int device);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }
  int device() const { return device_; }

 private:
  int device_;
  cudaStream_t stream_ = nullptr;
};

// Work enqueued on `waiter` from now on waits for the work enqueued on `signaller` so far
// (fork/join between streams, possibly on different GPUs).
void wait_for(const Stream& waiter, const Stream& signaller);

// The source pattern of repeat `repeat` of a `bytes`-byte transfer.
void fill_pattern(void* device_data, std::size_t bytes, int repeat, const Stream& stream);
void fill_pattern_host(void* host_data, std::size_t bytes, int repeat);
// Throws VerificationError naming `what` unless the buffer holds that pattern (synchronises).
void verify_pattern(const void* device_data, std::size_t bytes, int repeat, const Stream& stream,
                    const std::string& what);
void verify_pattern_host(const void* host_data, std::size_t bytes, int repeat, const std::string& what);

// A grid-stride copy kernel on `stream`'s GPU; `dst` or `src` may be a peer's pointer.
void launch_copy_kernel(void* dst, const void* src, std::size_t bytes, const Stream& stream);

// One measurement: prepare(r) (untimed: fill the source), enqueue(r) (timed on `stream`, may fork
// to other streams if it joins back), check(r) (untimed: verify). Repeat 0 is the warm-up.
struct TimedSteps {
  std::function<void(int)> prepare;
  std::function<void(int)> enqueue;
  std::function<void(int)> check;
};
// Median seconds of one timed repeat.
double median_seconds(const Stream& stream, int repeats, const TimedSteps& steps);

inline double gigabytes_per_second(double bytes, double seconds) { return bytes / seconds / 1e9; }

// A dst x src matrix over the ordered pairs of distinct selected GPUs; cell(src, dst) gives the
// value (NaN: not measured). `symmetric`: measure src < dst only and mirror.
Matrix pair_matrix(const Machine& machine, const std::string& title, const std::string& definition,
                   const std::string& unit, const std::function<double(int src, int dst)>& cell,
                   bool symmetric = false);

// Median seconds of one cudaMemcpyPeerAsync of `bytes` from src to dst on a stream of src, timed
// as `batch` back-to-back copies between the events (a small copy is shorter than the events'
// resolution) divided by `batch`. Peer access is whatever the caller set. Verified every repeat.
double peer_copy_seconds(int src, int dst, std::size_t bytes, int batch, int repeats);

// "needs 2 GPUs, 1 selected" or empty.
std::string needs_gpus(const Machine& machine, std::size_t count);

// "median of 7 repeats of 64 MiB" for definitions.
std::string timing_note(const P2POptions& options, std::size_t bytes);

}  // namespace yeex::p2p
