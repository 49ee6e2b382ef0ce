// pingpong: device-initiated latency, the floor under the cooperative backend's flag handshakes.
// One single-thread kernel on GPU a and one on GPU b bounce a counter through peer memory: each
// side spins on a flag in its own memory and, on seeing the value it waits for, stores the next
// value into the flag in the other GPU's memory (a store through a peer pointer, then polling a
// local word: the cheap direction of both). Stores are release and loads acquire at system scope
// (cuda::atomic_ref, thread_scope_system), as the cooperative backend's flags are.
//   a: for i in 0..N-1: b.flag = base + 2i + 1; wait a.flag == base + 2i + 2
//   b: for i in 0..N-1: wait b.flag == base + 2i + 1; a.flag = base + 2i + 2
// One repeat times the N round trips with CUDA events on a's stream (b's kernel is launched
// first and joins a's stream, so the clock stops when both are done); one-way latency = time /
// (2 N). Verified: each side must see exactly the value it waits for (anything else is counted
// as wrong), and both flags must hold the last values afterwards; `base` changes every repeat,
// so a stale flag never passes. A wait gives up after 2 s (an error, never a hang).
#include <cuda/atomic>

#include <cstdint>

#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

constexpr int kRoundTrips = 10000;
constexpr unsigned long long kTimeoutNs = 2'000'000'000ull;

__device__ inline unsigned long long global_nanoseconds() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Waits until *flag == expected; counts values that are neither the previous one nor expected.
// Returns false on timeout.
__device__ bool wait_for_value(unsigned int* flag, unsigned int expected, unsigned int* wrong) {
  cuda::atomic_ref<unsigned int, cuda::thread_scope_system> local(*flag);
  const unsigned long long start = global_nanoseconds();
  for (;;) {
    const unsigned int seen = local.load(cuda::memory_order_acquire);
    if (seen == expected) return true;
    if (seen != expected - 2 && seen != expected - 1) ++*wrong;  // -1/-2: not there yet
    if (global_nanoseconds() - start > kTimeoutNs) return false;
  }
}

// status[0]: values seen that were not expected; status[1]: 1 if a wait timed out.
__global__ void ping_kernel(unsigned int* own_flag, unsigned int* peer_flag, unsigned int base, int round_trips,
                            unsigned int* status) {
  cuda::atomic_ref<unsigned int, cuda::thread_scope_system> peer(*peer_flag);
  for (int i = 0; i < round_trips; ++i) {
    peer.store(base + 2u * i + 1u, cuda::memory_order_release);
    if (!wait_for_value(own_flag, base + 2u * i + 2u, &status[0])) {
      status[1] = 1;
      return;
    }
  }
}

__global__ void pong_kernel(unsigned int* own_flag, unsigned int* peer_flag, unsigned int base, int round_trips,
                            unsigned int* status) {
  cuda::atomic_ref<unsigned int, cuda::thread_scope_system> peer(*peer_flag);
  for (int i = 0; i < round_trips; ++i) {
    if (!wait_for_value(own_flag, base + 2u * i + 1u, &status[0])) {
      status[1] = 1;
      return;
    }
    peer.store(base + 2u * i + 2u, cuda::memory_order_release);
  }
}

class PingPongTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override {
    if (const std::string why = needs_gpus(machine, 2); !why.empty()) return why;
    for (std::size_t i = 0; i < machine.gpu_count(); ++i)
      for (std::size_t j = 0; j < machine.gpu_count(); ++j)
        if (i != j && can_access_peer(machine.device(i), machine.device(j))) return "";
    return "no pair of the selected GPUs allows peer access";
  }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const auto cell = [&](int a, int b) {
      if (!can_access_peer(a, b) || !can_access_peer(b, a)) return double(NAN);
      enable_peer_access(a, b);
      // Each GPU: [flag, wrong count, timed out], zeroed before every repeat.
      DeviceBuffer on_a(a, 3 * sizeof(unsigned int)), on_b(b, 3 * sizeof(unsigned int));
      auto* words_a = static_cast<unsigned int*>(on_a.get());
      auto* words_b = static_cast<unsigned int*>(on_b.get());
      Stream stream_a(a), stream_b(b);
      const auto base = [](int r) { return 1000u + static_cast<unsigned int>(r) * (4u * kRoundTrips); };
      const std::string pair = std::to_string(a) + "<->" + std::to_string(b);
      const double seconds = median_seconds(
          stream_a, o.repeats,
          {[&](int r) {
             // Each flag starts two below the first value its side waits for (never counted as wrong).
             const unsigned int start_a[3] = {base(r), 0, 0}, start_b[3] = {base(r) - 1, 0, 0};
             YEEX_CUDA(cudaSetDevice(a));
             YEEX_CUDA(cudaMemcpyAsync(words_a, start_a, sizeof start_a, cudaMemcpyHostToDevice, stream_a.get()));
             YEEX_CUDA(cudaStreamSynchronize(stream_a.get()));
             YEEX_CUDA(cudaSetDevice(b));
             YEEX_CUDA(cudaMemcpyAsync(words_b, start_b, sizeof start_b, cudaMemcpyHostToDevice, stream_b.get()));
             YEEX_CUDA(cudaStreamSynchronize(stream_b.get()));
           },
           [&](int r) {
             YEEX_CUDA(cudaSetDevice(b));
             pong_kernel<<<1, 1, 0, stream_b.get()>>>(words_b, words_a, base(r), kRoundTrips, words_b + 1);
             YEEX_CUDA(cudaGetLastError());
             YEEX_CUDA(cudaSetDevice(a));
             ping_kernel<<<1, 1, 0, stream_a.get()>>>(words_a, words_b, base(r), kRoundTrips, words_a + 1);
             YEEX_CUDA(cudaGetLastError());
             wait_for(stream_a, stream_b);
           },
           [&](int r) {
             unsigned int got_a[3], got_b[3];
             YEEX_CUDA(cudaSetDevice(a));
             YEEX_CUDA(cudaMemcpy(got_a, words_a, sizeof got_a, cudaMemcpyDeviceToHost));
             YEEX_CUDA(cudaSetDevice(b));
             YEEX_CUDA(cudaMemcpy(got_b, words_b, sizeof got_b, cudaMemcpyDeviceToHost));
             const unsigned int last = base(r) + 2u * kRoundTrips;
             if (got_a[2] || got_b[2])
               throw VerificationError("pingpong " + pair + ": a flag wait timed out after 2 s (repeat " +
                                       std::to_string(r) + ")");
             if (got_a[0] != last || got_b[0] != last - 1 || got_a[1] || got_b[1])
               throw VerificationError("pingpong " + pair + ": final flags " + std::to_string(got_a[0]) + "/" +
                                       std::to_string(got_b[0]) + " (expected " + std::to_string(last) + "/" +
                                       std::to_string(last - 1) + "), " + std::to_string(got_a[1] + got_b[1]) +
                                       " unexpected values seen (repeat " + std::to_string(r) + ")");
           }});
      return 1e6 * seconds / (2.0 * kRoundTrips);
    };
    return {"pingpong",
            {pair_matrix(machine, "pingpong",
                         "one-way device-to-device latency: " + std::to_string(kRoundTrips) +
                             " round trips of a flag between a kernel on each GPU (system-scope release store "
                             "into the peer's memory, acquire spin on its own), time / (2 x round trips), median of " +
                             std::to_string(o.repeats) + " repeats ('-': no peer access); symmetric",
                         "us", cell, true)},
            {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_pingpong_test() { return std::make_unique<PingPongTest>(); }

}  // namespace yeex::p2p
