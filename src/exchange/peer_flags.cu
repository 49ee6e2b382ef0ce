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

static_assert(CounterWait::kMaxPoisons >= 2 * PeerFlags::kChannels * 2,
              "a wait poisons every channel's counters both ways with two neighbours");

namespace {

// After the stream's earlier work: one more signal (one block of one thread: it arrives last).
__global__ void signal_kernel(const SignalTargets t) { signal_when_last(t); }

// One thread: the stream's later work runs once the signals have come (or the wait gave up).
__global__ void wait_kernel(const __grid_constant__ CounterWait w) { await_counters(w, true); }

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

CounterWait PeerFlags::wait_for(int at, const std::vector<int>& senders, int channel) const {
  CounterWait w;
  Block* me = blocks_[static_cast<std::size_t>(at)];
  w.channel = channel;
  for (int from : senders) {
    w.counter[w.count] = counter(at, channel, from);
    w.consumed[w.count] = &me->consumed[channel][side(at, from)];
    w.side[w.count++] = side(at, from);
  }
  const int count = static_cast<int>(devices_.size());
  for (int neighbour : {at - 1, at + 1}) {
    if (neighbour < 0 || neighbour >= count) continue;
    for (int c = 0; c < kChannels; ++c) {
      w.poison[w.poisons++] = counter(neighbour, c, at);  // what it waits for from us
      w.poison[w.poisons++] = counter(at, c, neighbour);  // what we wait for from it
    }
  }
  w.failure = &me->failure;
  return w;
}

void PeerFlags::wait(int at, const std::vector<int>& senders, int channel, cudaStream_t stream) const {
  if (senders.empty()) return;
  const CounterWait w = wait_for(at, senders, channel);
  YEEX_CUDA(cudaSetDevice(devices_[static_cast<std::size_t>(at)]));
  wait_kernel<<<1, 1, 0, stream>>>(w);
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
  const std::string who = std::string(side == kLower ? "lower" : "upper") + " neighbour (subdomain " +
                          std::to_string(other) + ", GPU " + std::to_string(devices_[static_cast<std::size_t>(other)]) +
                          ")";
  if (why >> 8 == 1)
    return "subdomain " + at + " waited more than " + std::to_string(kFlagWaitSeconds) + " s for its " + who +
           " at the " + channel_name(channel) + " exchange: that GPU's work stopped or never started";
  return "subdomain " + at + " stopped at the " + channel_name(channel) + " exchange: its " + who + " gave up first";
}

}  // namespace yeex
