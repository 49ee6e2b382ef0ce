// Counters between GPUs, the device side: how a kernel signals a neighbour that planes it stored
// into the neighbour's memory have landed, and how a kernel waits for such a signal. The counters
// themselves, their owners and their meaning are src/exchange/peer_flags.hpp's (PeerFlags); this
// header holds only what kernels run, so that the cuda engine's pushing sweeps
// (kernels/cuda/cuda_engine.hpp, PlanePush) and the exchange's own kernels share one protocol.
// The structs are plain C++; the device functions exist only under nvcc.
#pragma once

#ifdef __CUDACC__
#include <cuda/atomic>
#endif

namespace yeex {

// One signal: the counters it adds 1 to (one per receiver). A kernel that signals after its own
// work also counts its blocks' arrivals, so that its last block signals.
struct SignalTargets {
  static constexpr int kMax = 2;  // neighbours
  unsigned long long* counter[kMax] = {};
  int count = 0;
  unsigned* arrivals = nullptr;  // the sender's, for this channel; 0 between launches
};

// One wait: the counters it waits on (one per sender) with what their owner has consumed of
// each, and what it does when it gives up (PeerFlags::wait's contract: the reason into `failure`,
// the abort bit into every counter in `poison`).
struct CounterWait {
  static constexpr int kMax = SignalTargets::kMax;
  static constexpr int kMaxPoisons = 16;  // every channel's counters, both ways, with two neighbours
  static constexpr unsigned long long kAbortBit = 1ull << 63;
  static constexpr unsigned long long kSeconds = 10;  // a wait gives up after this long
  unsigned long long* counter[kMax] = {};
  unsigned long long* consumed[kMax] = {};
  int side[kMax] = {};
  int count = 0;
  int channel = 0;
  unsigned long long* poison[kMaxPoisons] = {};
  int poisons = 0;
  unsigned long long* failure = nullptr;
};

#ifdef __CUDACC__
__device__ __forceinline__ unsigned long long global_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Called by every thread of `blocks` blocks of a kernel after their stores into the receivers
// (all blocks of the grid, or the first `blocks` of them); true in thread 0 of the block that
// arrives last, every other block's stores fenced at system scope before its arrival. That block
// has reset the arrivals for the next launch. One fence a block, by thread 0 after the barrier
// (the block's stores -> barrier -> fence -> arrival: cumulative, as a grid.sync() orders a
// block's stores), not one by every thread before it: EXPERIMENT.
__device__ inline bool arrive_last(unsigned* arrivals_of_channel, unsigned blocks) {
  __syncthreads();
  if (threadIdx.x != 0 || threadIdx.y != 0 || threadIdx.z != 0) return false;
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrivals(*arrivals_of_channel);
  if (arrivals.fetch_add(1, cuda::memory_order_acq_rel) + 1 != blocks) return false;
  arrivals.store(0, cuda::memory_order_relaxed);
  return true;
}

// Adds 1 to every target counter, with release at system scope.
__device__ inline void signal(const SignalTargets& t) {
  for (int i = 0; i < t.count; ++i)
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(*t.counter[i])
        .fetch_add(1, cuda::memory_order_release);
}

// Every block of the grid calls it after its stores: the last one signals.
__device__ inline void signal_when_last(const SignalTargets& t) {
  if (t.count == 0) return;
  if (arrive_last(t.arrivals, gridDim.x * gridDim.y * gridDim.z)) signal(t);
}

// One thread: waits until every counter of `w` exceeds what its owner consumed of it, polling with
// relaxed system-scope loads, then one acquire fence (as coop's waits). With `consume` it counts
// each signal consumed; else the caller does (consume_signals), once every block that waits for
// the same signals has passed. Gives up after kSeconds, or at once when a neighbour gave up (the
// abort bit makes a counter huge): then records why (the first reason stays), sets the abort bit in
// every poison counter so that the neighbours and this subdomain's later waits stop too, and
// returns false.
__device__ inline bool await_counters(const CounterWait& w, bool consume) {
  for (int i = 0; i < w.count; ++i) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> flag(*w.counter[i]);
    const unsigned long long target = *w.consumed[i] + 1;
    unsigned long long value = flag.load(cuda::memory_order_relaxed);
    if (value < target) {
      const unsigned long long start = global_time_ns();
      for (unsigned polls = 1; value < target; ++polls) {
        if (polls % 256 == 0 && global_time_ns() - start > CounterWait::kSeconds * 1000000000ull) break;
        value = flag.load(cuda::memory_order_relaxed);
      }
    }
    if (value >= target && !(value & CounterWait::kAbortBit)) {
      if (consume) *w.consumed[i] = target;
      continue;
    }
    if (*w.failure == 0)
      *w.failure = (value & CounterWait::kAbortBit ? 2ull : 1ull) << 8 | unsigned(w.channel) << 1 | unsigned(w.side[i]);
    for (int j = 0; j < w.poisons; ++j)
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(*w.poison[j]).fetch_or(CounterWait::kAbortBit);
    return false;
  }
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_system);
  return true;
}

// Counts the signals of `w` consumed (await_counters without `consume`).
__device__ inline void consume_signals(const CounterWait& w) {
  for (int i = 0; i < w.count; ++i) *w.consumed[i] += 1;
}
#endif

}  // namespace yeex
