// pingpong: device-initiated latency, the floor under the cooperative backend's flag handshakes.
// One single-thread kernel on GPU a and one on GPU b bounce a counter through peer memory: each
// side spins on a flag in its own memory and, on seeing the value it waits for, stores the next
// value into the flag in the other GPU's memory (a store through a peer pointer, then polling a
// local word: the cheap direction of both).
//   a: for i in 0..N-1: b.flag = base + 2i + 1; wait a.flag == base + 2i + 2
//   b: for i in 0..N-1: wait b.flag == base + 2i + 1; a.flag = base + 2i + 2
// Two handshakes, one matrix each:
//   pingpong: relaxed. The flag is the only data, so nothing has to be ordered around it: a
//     relaxed store and relaxed polling loads at system scope (st/ld.relaxed.sys: in the PTX
//     memory model the same as volatile accesses; no fence, no L1 invalidation). The scope is
//     .sys, not .gpu: the other thread runs on another GPU, outside .gpu scope, and only
//     operations whose scopes hold both threads are defined to see each other. This is the
//     interconnect's own one-way latency, the figure references quote.
//   pingpong/release-acquire: a release store and acquire loads at system scope, as a handshake
//     that hands over data (coop's halo planes) needs: a system-wide fence before every store,
//     an L1 invalidation after every poll. The difference to pingpong is the price of ordering.
// The timeout clock is read once every kPollsPerClockRead polls, as reading it takes longer than
// a poll. One repeat times the N round trips with CUDA events on a's stream (b's kernel is
// launched first and joins a's stream, so the clock stops when both are done; the launches are
// under 0.1 % of a repeat); one-way latency = time / (2 N). Verified: each side must see exactly
// the value it waits for (anything else is counted as wrong), and both flags must hold the last
// values afterwards, so the counter really went back and forth N times; `base` changes every
// repeat, so a stale flag never passes. A wait gives up after about 2 s (an error, never a hang).
#include <cuda/atomic>

#include <cstdint>

#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

constexpr int kRoundTrips = 10000;
constexpr unsigned long long kTimeoutNs = 2'000'000'000ull;
constexpr unsigned int kPollsPerClockRead = 1024;

enum class Handshake { relaxed, release_acquire };

__device__ inline unsigned long long global_nanoseconds() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <Handshake H>
__device__ __forceinline__ void signal(unsigned int* peer_flag, unsigned int value) {
  cuda::atomic_ref<unsigned int, cuda::thread_scope_system> flag(*peer_flag);
  flag.store(value, H == Handshake::relaxed ? cuda::memory_order_relaxed : cuda::memory_order_release);
}

// Waits until *flag == expected; counts polls that saw neither the previous value nor expected.
// Returns false on timeout.
template <Handshake H>
__device__ bool wait_for_value(unsigned int* flag, unsigned int expected, unsigned int* wrong) {
  cuda::atomic_ref<unsigned int, cuda::thread_scope_system> local(*flag);
  unsigned long long deadline = 0;
  for (unsigned int polls = 1;; ++polls) {
    const unsigned int seen =
        local.load(H == Handshake::relaxed ? cuda::memory_order_relaxed : cuda::memory_order_acquire);
    if (seen == expected) return true;
    if (seen != expected - 2 && seen != expected - 1) ++*wrong;  // -1/-2: not there yet
    if (polls % kPollsPerClockRead == 0) {
      const unsigned long long now = global_nanoseconds();
      if (deadline == 0)
        deadline = now + kTimeoutNs;
      else if (now > deadline)
        return false;
    }
  }
}

// status[0]: polls that saw an unexpected value; status[1]: 1 if a wait timed out.
template <Handshake H>
__global__ void ping_kernel(unsigned int* own_flag, unsigned int* peer_flag, unsigned int base, int round_trips,
                            unsigned int* status) {
  for (int i = 0; i < round_trips; ++i) {
    signal<H>(peer_flag, base + 2u * i + 1u);
    if (!wait_for_value<H>(own_flag, base + 2u * i + 2u, &status[0])) {
      status[1] = 1;
      return;
    }
  }
}

template <Handshake H>
__global__ void pong_kernel(unsigned int* own_flag, unsigned int* peer_flag, unsigned int base, int round_trips,
                            unsigned int* status) {
  for (int i = 0; i < round_trips; ++i) {
    if (!wait_for_value<H>(own_flag, base + 2u * i + 1u, &status[0])) {
      status[1] = 1;
      return;
    }
    signal<H>(peer_flag, base + 2u * i + 2u);
  }
}

// Median one-way latency between GPUs a and b in microseconds (NaN without peer access both ways).
template <Handshake H>
double one_way_microseconds(int a, int b, int repeats) {
  if (!can_access_peer(a, b) || !can_access_peer(b, a)) return double(NAN);
  enable_peer_access(a, b);
  // Each GPU: [flag, wrong count, timed out], set before every repeat.
  DeviceBuffer on_a(a, 3 * sizeof(unsigned int)), on_b(b, 3 * sizeof(unsigned int));
  auto* words_a = static_cast<unsigned int*>(on_a.get());
  auto* words_b = static_cast<unsigned int*>(on_b.get());
  Stream stream_a(a), stream_b(b);
  const auto base = [](int r) { return 1000u + static_cast<unsigned int>(r) * (4u * kRoundTrips); };
  const std::string pair = std::to_string(a) + "<->" + std::to_string(b);
  const double seconds = median_seconds(
      stream_a, repeats,
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
         pong_kernel<H><<<1, 1, 0, stream_b.get()>>>(words_b, words_a, base(r), kRoundTrips, words_b + 1);
         YEEX_CUDA(cudaGetLastError());
         YEEX_CUDA(cudaSetDevice(a));
         ping_kernel<H><<<1, 1, 0, stream_a.get()>>>(words_a, words_b, base(r), kRoundTrips, words_a + 1);
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
         const std::string what = "pingpong " + pair + (H == Handshake::relaxed ? "" : " (release-acquire)");
         if (got_a[2] || got_b[2])
           throw VerificationError(what + ": a flag wait timed out after 2 s (repeat " + std::to_string(r) + ")");
         if (got_a[0] != last || got_b[0] != last - 1 || got_a[1] || got_b[1])
           throw VerificationError(what + ": final flags " + std::to_string(got_a[0]) + "/" + std::to_string(got_b[0]) +
                                   " (expected " + std::to_string(last) + "/" + std::to_string(last - 1) + "), " +
                                   std::to_string(got_a[1] + got_b[1]) + " polls saw unexpected values (repeat " +
                                   std::to_string(r) + ")");
       }});
  return 1e6 * seconds / (2.0 * kRoundTrips);
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
    const std::string common = std::to_string(kRoundTrips) +
                               " round trips of a flag between one thread on each GPU, each storing into the "
                               "peer's memory and spinning on its own; time / (2 x round trips), median of " +
                               std::to_string(o.repeats) + " repeats ('-': no peer access); symmetric";
    return {"pingpong",
            {pair_matrix(
                 machine, "pingpong",
                 "one-way device-to-device latency: " + common +
                     "; relaxed system-scope store and polling loads (volatile; no fence: the flag is the "
                     "only data), the interconnect's floor",
                 "us", [&](int a, int b) { return one_way_microseconds<Handshake::relaxed>(a, b, o.repeats); }, true),
             pair_matrix(
                 machine, "pingpong/release-acquire",
                 "one-way latency of a handshake that orders data: the same " + common +
                     "; release store and acquire polling loads at system scope (as coop's flags); "
                     "minus pingpong = the price of that ordering",
                 "us", [&](int a, int b) { return one_way_microseconds<Handshake::release_acquire>(a, b, o.repeats); },
                 true)},
            {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_pingpong_test() { return std::make_unique<PingPongTest>(); }

}  // namespace yeex::p2p
