#include "src/exchange/peer_flags.hpp"

#include "decomposition/halo_plan.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace yeex {

struct PeerFlags::Block {
  unsigned long long received[kChannels][2];  // [channel][side]: signals from that neighbour
  unsigned long long consumed[kChannels][2];  // [channel][side]: of those, waited for
  unsigned long long failure;                 // 0, or why this subdomain stopped (see failure())
  unsigned arrivals[kChannels];               // [channel]: blocks of a signalling kernel arrived
};

namespace {

constexpr unsigned long long kAbortBit = 1ull << 63;
constexpr int kMaxTargets = SignalTargets::kMax;
constexpr int kMaxPoisons = 2 * PeerFlags::kChannels * 2;  // theirs for us and ours, every channel

// After the stream's earlier work: one more signal (one block of one thread: it arrives last).
__global__ void signal_kernel(const SignalTargets t) { signal_when_last(t); }

struct WaitParams {
  unsigned long long* counter[kMaxTargets];
  unsigned long long* consumed[kMaxTargets];
  int side[kMaxTargets];
  int count;
  int channel;
  unsigned long long* poison[kMaxPoisons];
  int poisons;
  unsigned long long* failure;
};

__device__ __forceinline__ unsigned long long global_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread. Polls with relaxed system-scope loads, then one acquire fence (as coop's waits).
__global__ void wait_kernel(const __grid_constant__ WaitParams p) {
  for (int i = 0; i < p.count; ++i) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> flag(*p.counter[i]);
    const unsigned long long target = *p.consumed[i] + 1;
    unsigned long long value = flag.load(cuda::memory_order_relaxed);
    if (value < target) {
      const unsigned long long start = global_time_ns();
      for (unsigned polls = 1; value < target; ++polls) {  // the abort bit makes value huge
        if (polls % 256 == 0 && global_time_ns() - start > PeerFlags::kFlagWaitSeconds * 1000000000ull) break;
        value = flag.load(cuda::memory_order_relaxed);
      }
    }
    if (value >= target && !(value & kAbortBit)) {
      *p.consumed[i] = target;
      continue;
    }
    // Give up: say why (the first reason stays), and stop the neighbours and our own later waits.
    if (*p.failure == 0) *p.failure = (value & kAbortBit ? 2ull : 1ull) << 8 | unsigned(p.channel) << 1 | unsigned(p.side[i]);
    for (int j = 0; j < p.poisons; ++j)
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(*p.poison[j]).fetch_or(kAbortBit);
    return;
  }
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_system);
}

std::string channel_name(int channel) {
  return channel == PeerFlags::kReady ? std::string("ready") : std::string(phase_name(static_cast<HaloPhase>(channel)));
}

}  // namespace

PeerFlags::PeerFlags(std::vector<int> devices) : devices_(std::move(devices)), blocks_(devices_.size(), nullptr) {
  for (std::size_t s = 0; s < devices_.size(); ++s) {
    YEEX_CUDA(cudaSetDevice(devices_[s]));
    YEEX_CUDA(cudaMalloc(&blocks_[s], sizeof(Block)));
    YEEX_CUDA(cudaMemset(blocks_[s], 0, sizeof(Block)));
  }
  YEEX_CUDA(cudaDeviceSynchronize());
}

PeerFlags::~PeerFlags() {
  for (std::size_t s = 0; s < devices_.size(); ++s)
    if (blocks_[s]) {
      cudaSetDevice(devices_[s]);
      cudaFree(blocks_[s]);
    }
}

unsigned long long* PeerFlags::counter(int owner, int channel, int from) const {
  return &blocks_[static_cast<std::size_t>(owner)]->received[channel][side(owner, from)];
}

SignalTargets PeerFlags::targets(int from, const std::vector<int>& receivers, int channel) const {
  SignalTargets t;
  for (int r : receivers) t.counter[t.count++] = counter(r, channel, from);
  t.arrivals = &blocks_[static_cast<std::size_t>(from)]->arrivals[channel];
  return t;
}

void PeerFlags::signal(int from, const std::vector<int>& receivers, int channel, cudaStream_t stream) const {
  if (receivers.empty()) return;
  const SignalTargets t = targets(from, receivers, channel);
  YEEX_CUDA(cudaSetDevice(devices_[static_cast<std::size_t>(from)]));
  signal_kernel<<<1, 1, 0, stream>>>(t);
  YEEX_CUDA(cudaGetLastError());
}

void PeerFlags::wait(int at, const std::vector<int>& senders, int channel, cudaStream_t stream) const {
  if (senders.empty()) return;
  WaitParams p{};
  Block* me = blocks_[static_cast<std::size_t>(at)];
  p.channel = channel;
  for (int from : senders) {
    p.counter[p.count] = counter(at, channel, from);
    p.consumed[p.count] = &me->consumed[channel][side(at, from)];
    p.side[p.count++] = side(at, from);
  }
  const int count = static_cast<int>(devices_.size());
  for (int neighbour : {at - 1, at + 1}) {
    if (neighbour < 0 || neighbour >= count) continue;
    for (int c = 0; c < kChannels; ++c) {
      p.poison[p.poisons++] = counter(neighbour, c, at);  // what it waits for from us
      p.poison[p.poisons++] = counter(at, c, neighbour);  // what we wait for from it
    }
  }
  p.failure = &me->failure;
  YEEX_CUDA(cudaSetDevice(devices_[static_cast<std::size_t>(at)]));
  wait_kernel<<<1, 1, 0, stream>>>(p);
  YEEX_CUDA(cudaGetLastError());
}

std::string PeerFlags::failure(int s) const {
  unsigned long long why = 0;
  YEEX_CUDA(cudaSetDevice(devices_[static_cast<std::size_t>(s)]));
  YEEX_CUDA(cudaMemcpy(&why, &blocks_[static_cast<std::size_t>(s)]->failure, sizeof(why), cudaMemcpyDeviceToHost));
  if (why == 0) return "";
  const int side = static_cast<int>(why & 1), channel = static_cast<int>((why >> 1) & 0x7f);
  const int other = side == kLower ? s - 1 : s + 1;
  const std::string at = std::to_string(s) + " (GPU " + std::to_string(devices_[static_cast<std::size_t>(s)]) + ")";
  const std::string who = std::string(side == kLower ? "lower" : "upper") + " neighbour (subdomain " + std::to_string(other) +
                          ", GPU " + std::to_string(devices_[static_cast<std::size_t>(other)]) + ")";
  if (why >> 8 == 1)
    return "subdomain " + at + " waited more than " + std::to_string(kFlagWaitSeconds) + " s for its " + who + " at the " +
           channel_name(channel) + " exchange: that GPU's work stopped or never started";
  return "subdomain " + at + " stopped at the " + channel_name(channel) + " exchange: its " + who + " gave up first";
}

}  // namespace yeex
