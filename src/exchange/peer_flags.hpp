// Counters between GPUs that order the graph backend's steps without the host
// (CounterTransport, src/exchange/copy_transports.hpp). CUDA builds only.
//
// Each subdomain owns, in its GPU's memory, one counter per channel (a halo phase, or `ready` for
// B+2R's "my ghost planes are free") and per side (its lower or upper neighbour). A sender
// signals by adding 1 to the receiver's counter through a peer pointer, after a system-scope
// fence, once per step (or block) that the channel carries; the receiver's wait spins on one
// thread until the counter reaches what it has consumed plus one, then counts that one consumed.
// Counters only grow, so a wait can never mistake an old signal for a new one, and a signal may
// land before the wait is even issued: the host need not order them (no barrier, no event
// record to wait for), and a recorded step replays with the same arguments every time.
// Bounded: a wait gives up after kFlagWaitSeconds, or at once when a neighbour gave up (the abort
// bit in the counter), records why in its subdomain's status, and sets the abort bit in every
// counter it signals and in its own, so that its neighbours and its own later waits stop too.
// failure(s) reads the status (after the GPU's work is done): a stalled neighbour is an error,
// never a hang.
// The kernels' side of the protocol (signal, bounded wait) is kernels/cuda/peer_counters.hpp:
// signal() and wait() enqueue one-thread kernels that run it; targets() and wait_for() hand the
// same counters to a kernel that signals or waits itself (the push kernel, the cuda engine's
// pushing sweeps).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "decomposition/grid.hpp"
#include "kernels/cuda/peer_counters.hpp"

namespace yeex {

class PeerFlags {
 public:
  static constexpr int kReady = 3;  // the channel after the halo phases (kHaloPhaseCount of them)
  static constexpr int kChannels = 4;
  static constexpr int kLower = 0, kUpper = 1;  // sides, seen from the counter's owner
  static constexpr unsigned long long kFlagWaitSeconds = CounterWait::kSeconds;

  // devices[s]: the GPU of subdomain s; neighbours are s - 1 and s + 1.
  explicit PeerFlags(std::vector<int> devices);
  ~PeerFlags();
  PeerFlags(const PeerFlags&) = delete;
  PeerFlags& operator=(const PeerFlags&) = delete;

  // Enqueues on `stream` (of `from`'s GPU): adds 1 to the `channel` counter that each of
  // `receivers` (neighbours of `from`) keeps for `from`.
  void signal(int from, const std::vector<int>& receivers, int channel, cudaStream_t stream) const;
  // The same signal's counters, for a kernel of `from` that signals at its end (signal_when_last).
  SignalTargets targets(int from, const std::vector<int>& receivers, int channel) const;
  // Enqueues on `stream` (of `at`'s GPU): work issued afterwards runs once every one of `senders`
  // (neighbours of `at`) has signalled `channel` one more time than `at` has waited for it.
  void wait(int at, const std::vector<int>& senders, int channel, cudaStream_t stream) const;
  // The same wait's counters, for a kernel of `at` that waits inside (await_counters).
  CounterWait wait_for(int at, const std::vector<int>& senders, int channel) const;
  // Why subdomain s stopped, or "" when it did not; call after its GPU's work is done.
  std::string failure(int s) const;

 private:
  struct Block;  // one subdomain's counters and status, in its GPU's memory
  unsigned long long* counter(int owner, int channel, int from) const;
  int side(int owner, int from) const { return from < owner ? kLower : kUpper; }

  std::vector<int> devices_;
  std::vector<Block*> blocks_;  // [subdomain]
};

}  // namespace yeex
