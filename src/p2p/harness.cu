#include "src/p2p/harness.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace yeex::p2p {
namespace {

// Depends on the position, the transfer size and the repeat, so a stale buffer from another
// size or an earlier repeat never passes.
__host__ __device__ inline std::uint8_t pattern_byte(std::size_t i, std::size_t bytes, int repeat) {
  const std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (bytes * 0xBF58476D1CE4E5B9ull) ^
                          (std::uint64_t(repeat) * 0x94D049BB133111EBull);
  return static_cast<std::uint8_t>((x >> 32) ^ (x >> 56) ^ std::uint64_t(repeat));
}

__global__ void fill_kernel(std::uint8_t* data, std::size_t bytes, int repeat) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < bytes;
       i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = pattern_byte(i, bytes, repeat);
}

__global__ void verify_kernel(const std::uint8_t* data, std::size_t bytes, int repeat, unsigned long long* wrong,
                              unsigned long long* first) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < bytes;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (data[i] != pattern_byte(i, bytes, repeat)) {
      atomicAdd(wrong, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
}

// 16-byte loads and stores where both pointers allow it, bytes for the tail.
__global__ void copy_kernel(std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  std::size_t vector_bytes = 0;
  if ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) % 16 == 0) {
    vector_bytes = bytes / 16 * 16;
    for (std::size_t i = first; i < bytes / 16; i += stride)
      reinterpret_cast<uint4*>(dst)[i] = reinterpret_cast<const uint4*>(src)[i];
  }
  for (std::size_t i = vector_bytes + first; i < bytes; i += stride) dst[i] = src[i];
}

int grid_for(int device) {
  int sms = 0;
  YEEX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms * 4;
}
constexpr int kBlock = 256;

}  // namespace

DeviceBuffer::DeviceBuffer(int device, std::size_t bytes) : device_(device) {
  YEEX_CUDA(cudaSetDevice(device));
  YEEX_CUDA(cudaMalloc(&data_, bytes));
}
DeviceBuffer::~DeviceBuffer() {
  cudaSetDevice(device_);
  cudaFree(data_);
}

Stream::Stream(int device) : device_(device) {
  YEEX_CUDA(cudaSetDevice(device));
  YEEX_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}
Stream::~Stream() {
  cudaSetDevice(device_);
  cudaStreamDestroy(stream_);
}

void wait_for(const Stream& waiter, const Stream& signaller) {
  cudaEvent_t event;
  YEEX_CUDA(cudaSetDevice(signaller.device()));
  YEEX_CUDA(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  YEEX_CUDA(cudaEventRecord(event, signaller.get()));
  YEEX_CUDA(cudaStreamWaitEvent(waiter.get(), event, 0));
  YEEX_CUDA(cudaEventDestroy(event));  // released once the wait is done
}

void fill_pattern(void* device_data, std::size_t bytes, int repeat, const Stream& stream) {
  YEEX_CUDA(cudaSetDevice(stream.device()));
  fill_kernel<<<grid_for(stream.device()), kBlock, 0, stream.get()>>>(static_cast<std::uint8_t*>(device_data), bytes,
                                                                      repeat);
  YEEX_CUDA(cudaGetLastError());
  YEEX_CUDA(cudaStreamSynchronize(stream.get()));  // filled before any clock starts
}

void fill_pattern_host(void* host_data, std::size_t bytes, int repeat) {
  auto* p = static_cast<std::uint8_t*>(host_data);
  for (std::size_t i = 0; i < bytes; ++i) p[i] = pattern_byte(i, bytes, repeat);
}

void verify_pattern(const void* device_data, std::size_t bytes, int repeat, const Stream& stream,
                    const std::string& what) {
  YEEX_CUDA(cudaSetDevice(stream.device()));
  unsigned long long* counters = nullptr;  // [wrong, first wrong index]
  YEEX_CUDA(cudaMallocAsync(&counters, 2 * sizeof(unsigned long long), stream.get()));
  const unsigned long long init[2] = {0, ~0ull};
  YEEX_CUDA(cudaMemcpyAsync(counters, init, sizeof init, cudaMemcpyHostToDevice, stream.get()));
  verify_kernel<<<grid_for(stream.device()), kBlock, 0, stream.get()>>>(static_cast<const std::uint8_t*>(device_data),
                                                                        bytes, repeat, counters, counters + 1);
  YEEX_CUDA(cudaGetLastError());
  unsigned long long result[2];
  YEEX_CUDA(cudaMemcpyAsync(result, counters, sizeof result, cudaMemcpyDeviceToHost, stream.get()));
  YEEX_CUDA(cudaFreeAsync(counters, stream.get()));
  YEEX_CUDA(cudaStreamSynchronize(stream.get()));
  if (result[0] != 0)
    throw VerificationError(what + ": " + std::to_string(result[0]) + " of " + std::to_string(bytes) +
                            " bytes wrong, the first at byte " + std::to_string(result[1]) + " (repeat " +
                            std::to_string(repeat) + ")");
}

void verify_pattern_host(const void* host_data, std::size_t bytes, int repeat, const std::string& what) {
  const auto* p = static_cast<const std::uint8_t*>(host_data);
  for (std::size_t i = 0; i < bytes; ++i)
    if (p[i] != pattern_byte(i, bytes, repeat))
      throw VerificationError(what + ": byte " + std::to_string(i) + " of " + std::to_string(bytes) +
                              " wrong (repeat " + std::to_string(repeat) + ")");
}

void launch_copy_kernel(void* dst, const void* src, std::size_t bytes, const Stream& stream) {
  YEEX_CUDA(cudaSetDevice(stream.device()));
  copy_kernel<<<grid_for(stream.device()), kBlock, 0, stream.get()>>>(static_cast<std::uint8_t*>(dst),
                                                                      static_cast<const std::uint8_t*>(src), bytes);
  YEEX_CUDA(cudaGetLastError());
}

double median_seconds(const Stream& stream, int repeats, const TimedSteps& steps) {
  cudaEvent_t start, stop;
  YEEX_CUDA(cudaSetDevice(stream.device()));
  YEEX_CUDA(cudaEventCreate(&start));
  YEEX_CUDA(cudaEventCreate(&stop));
  std::vector<double> seconds;
  try {
    for (int r = 0; r <= repeats; ++r) {  // r = 0: warm-up, checked but not counted
      if (steps.prepare) steps.prepare(r);
      YEEX_CUDA(cudaSetDevice(stream.device()));
      YEEX_CUDA(cudaEventRecord(start, stream.get()));
      steps.enqueue(r);
      YEEX_CUDA(cudaSetDevice(stream.device()));
      YEEX_CUDA(cudaEventRecord(stop, stream.get()));
      YEEX_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      YEEX_CUDA(cudaEventElapsedTime(&ms, start, stop));
      if (steps.check) steps.check(r);
      if (r > 0) seconds.push_back(ms * 1e-3);
    }
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  return n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
}

Matrix pair_matrix(const Machine& machine, const std::string& title, const std::string& definition,
                   const std::string& unit, const std::function<double(int src, int dst)>& cell, bool symmetric) {
  const std::size_t n = machine.gpu_count();
  Matrix m{title, definition, unit, "dst",
           "src", {},         {},   std::vector<std::vector<double>>(n, std::vector<double>(n, NAN)),
           2};
  for (std::size_t i = 0; i < n; ++i) m.rows.push_back(std::to_string(machine.device(i)));
  m.columns = m.rows;
  for (std::size_t dst = 0; dst < n; ++dst)
    for (std::size_t src = 0; src < n; ++src) {
      if (src == dst || (symmetric && src > dst)) continue;
      m.values[dst][src] = cell(machine.device(src), machine.device(dst));
      if (symmetric) m.values[src][dst] = m.values[dst][src];
    }
  return m;
}

double peer_copy_seconds(int src, int dst, std::size_t bytes, int batch, int repeats) {
  DeviceBuffer from(src, bytes), to(dst, bytes);
  Stream stream(src), check(dst);
  const std::string what =
      "cudaMemcpyPeerAsync " + std::to_string(src) + "->" + std::to_string(dst) + " of " + format_size(bytes);
  const double seconds =
      median_seconds(stream, repeats,
                     {[&](int r) { fill_pattern(from.get(), bytes, r, stream); },
                      [&](int) {
                        for (int k = 0; k < batch; ++k)
                          YEEX_CUDA(cudaMemcpyPeerAsync(to.get(), dst, from.get(), src, bytes, stream.get()));
                      },
                      [&](int r) { verify_pattern(to.get(), bytes, r, check, what); }});
  return seconds / batch;
}

std::string needs_gpus(const Machine& machine, std::size_t count) {
  if (machine.gpu_count() >= count) return "";
  return "needs " + std::to_string(count) + " GPUs, " + std::to_string(machine.gpu_count()) + " selected";
}

std::string timing_note(const P2POptions& options, std::size_t bytes) {
  return "median of " + std::to_string(options.repeats) + " repeats of " + format_size(bytes);
}

}  // namespace yeex::p2p
