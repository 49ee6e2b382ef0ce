// The transports of the border-first schedule on GPUs (border_first_exchange.hpp): how the halo
// planes of one phase leave a GPU on its border lane (issue) and how that lane waits until the
// planes sent to it have landed (await). Each backend holds one and forwards to it:
//   PeerTransport    overlap, b2r (events): peer to peer, by the copy engines or the push kernel;
//                    GPUs ordered by CUDA events and host barriers (EventOrder);
//   StagedTransport  host-staged on GPUs, b2r under --no-peer: D2H into pinned host buffers, H2D by
//                    the receiver; ordered like PeerTransport;
//   CounterTransport graph, b2r (counters): the push kernel, its last block signalling counters on
//                    the receivers' GPUs (peer_flags.hpp); no event, no host barrier, so the steps
//                    can be recorded once and replayed.
// The protocol each follows, and why every read sees the right plane: docs/backends.md
// (border-first transports) and the comments of copy_transports.cu. CUDA builds only.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/peer_counters.hpp"
#include "src/exchange/cuda_handles.hpp"
#include "src/exchange/halo_exchange.hpp"
#include "src/exchange/peer_flags.hpp"
#include "src/exchange/staging_buffer.hpp"

namespace yeex {

// Every GPU idle, then a barrier: nobody still reads a ghost plane the first pushes overwrite,
// every owned plane is final. The transports' start(): one host synchronisation per advance() call.
template <typename Real>
void start_idle(const ExchangeContext<Real>& context, int s);

// Throws std::invalid_argument naming backend `name` unless every engine of `context` is a cuda engine.
template <typename Real>
void require_cuda_engines(const ExchangeContext<Real>& context, const std::string& name);

// The copies of every transfer of the plan, by sender and phase: one transfer's components' owned
// planes into the receiver's ghost planes, then its psi chunks (HaloExchange::state_chunks).
template <typename Real>
class HaloPushes {
 public:
  struct Copy {
    const Real* source = nullptr;
    Real* destination = nullptr;
    std::size_t bytes = 0;
    std::size_t staged_at = 0;  // elements into the staging buffer
  };
  struct Push {
    const HaloTransfer* transfer = nullptr;  // the plan's
    int from_device = -1, to_device = -1;
    std::vector<Copy> copies;
    std::unique_ptr<StagingBuffer<Real>> buffer;  // staged only: pinned host memory for every copy
  };
  // staged: every push gets a staging buffer; else peer access is enabled between its GPUs.
  HaloPushes(const HaloExchange<Real>& exchange, bool staged);

  const std::vector<Push>& of(int s, HaloPhase phase) const { return pushes_[s][static_cast<int>(phase)]; }
  // The subdomains that push to s in `phase`, and that s pushes to.
  const std::vector<int>& senders(int s, int phase) const { return senders_[s][phase]; }
  const std::vector<int>& receivers(int s, int phase) const { return receivers_[s][phase]; }
  std::size_t subdomains() const { return pushes_.size(); }

 private:
  std::vector<std::array<std::vector<Push>, kHaloPhaseCount>> pushes_;              // [sender][phase]
  std::vector<std::array<std::vector<int>, kHaloPhaseCount>> senders_, receivers_;  // [subdomain][phase]
};

// One launch of the push kernel per sender and phase, over every copy of its pushes (peer
// pointers): its runs move side by side, for the cost of one launch.
template <typename Real>
class PushKernel {
 public:
  PushKernel(const HaloPushes<Real>& pushes, const std::string& name);
  ~PushKernel();
  // The counters the launch of (s, phase) signals from its last block (CounterTransport).
  void signal(int s, int phase, const SignalTargets& targets);
  void launch(int s, HaloPhase phase, int device, cudaStream_t stream) const;

 private:
  struct Launches;
  std::unique_ptr<Launches> launches_;
};

// The events and host barriers that order the GPUs for PeerTransport and StagedTransport:
// pushed[s][phase] on the sender's border lane once its pushes of the phase landed, and with
// R > 1 ready[s] (its sent planes final, its ghost planes no longer read).
template <typename Real>
class EventOrder {
 public:
  EventOrder(const ExchangeContext<Real>& context, const HaloPushes<Real>& pushes);
  // R > 1: records s's ready, meets the others at a barrier, waits for the readiness of s's receivers.
  void ready(int s, HaloPhase phase, cudaStream_t stream);
  void pushed(int s, HaloPhase phase, cudaStream_t stream) const;
  void wait_pushed(int sender, HaloPhase phase, cudaStream_t stream) const;

 private:
  const ExchangeContext<Real>& context_;
  const HaloPushes<Real>& pushes_;
  std::vector<std::array<Event, kHaloPhaseCount>> pushed_;  // [sender][phase]
  std::vector<Event> ready_;                                // [subdomain], R > 1 only
};

// Peer to peer into the receivers' ghost planes, by the copy engines (cudaMemcpyPeerAsync, one copy
// per component and psi chunk) or by the push kernel; ExchangeOptions::peer_push picks, automatic:
// the kernel with R > 1 (b2r's many small copies), the copy engines with R = 1 (two a phase).
template <typename Real>
class PeerTransport {
 public:
  PeerTransport(const HaloExchange<Real>& exchange, const std::string& name);
  void start(int s) const { start_idle(context_, s); }
  void issue(int s, HaloPhase phase);
  void await(int s, HaloPhase phase);

 private:
  const ExchangeContext<Real>& context_;
  HaloPushes<Real> pushes_;
  std::unique_ptr<PushKernel<Real>> kernel_;  // null: the copy engines
  EventOrder<Real> order_;
};

// Through pinned host buffers: the sender copies its planes down (D2H) on its border lane, the
// receiver copies the buffer up (H2D) on its own once the sender's event says the D2H is done.
template <typename Real>
class StagedTransport {
 public:
  StagedTransport(const HaloExchange<Real>& exchange, const std::string& name);
  void start(int s) const { start_idle(context_, s); }
  void issue(int s, HaloPhase phase);
  void await(int s, HaloPhase phase);

 private:
  const ExchangeContext<Real>& context_;
  HaloPushes<Real> pushes_;
  EventOrder<Real> order_;
};

// The push kernel, its last block signalling the receivers' counters once every block's stores
// are fenced; await() is a one-thread kernel that waits for them (PeerFlags).
template <typename Real>
class CounterTransport {
 public:
  CounterTransport(const HaloExchange<Real>& exchange, const std::string& name);
  void start(int s) const { start_idle(context_, s); }
  // Enqueued on `stream` (the border lane, or the bulk lane for graph's priming push).
  void issue(int s, HaloPhase phase, cudaStream_t stream);
  void await(int s, HaloPhase phase, cudaStream_t stream) const;
  // After s's GPU finished: throws std::runtime_error if a wait of s gave up.
  void finish(int s) const;

  const HaloPushes<Real>& pushes() const { return pushes_; }
  const PeerFlags& flags() const { return *flags_; }

 private:
  const ExchangeContext<Real>& context_;
  std::string name_;
  HaloPushes<Real> pushes_;
  PushKernel<Real> kernel_;
  std::unique_ptr<PeerFlags> flags_;
};

// A subdomain's border and bulk lanes, as CUDA streams.
template <typename Real>
cudaStream_t border_stream(const ExchangeContext<Real>& context, int s) {
  return static_cast<cudaStream_t>(context.engines[s]->native_stream(Lane::border));
}
template <typename Real>
cudaStream_t bulk_stream(const ExchangeContext<Real>& context, int s) {
  return static_cast<cudaStream_t>(context.engines[s]->native_stream(Lane::bulk));
}

}  // namespace yeex
