#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// How the halo planes travel: peer to peer, by the copy engines (cudaMemcpyPeerAsync) or by one
// kernel per phase that stores every plane of the phase into the receivers through peer pointers
// (peer access enabled either way); or staged through pinned host buffers (D2H by the sender,
// H2D by the receiver; no peer access). peer_flags: peer_kernel's pushes, the GPUs ordered by
// counters on the GPUs instead of events and host barriers (src/exchange/peer_flags.hpp), so that
// the schedule records its steps once and replays them (the graph backend).
enum class OverlapTransport { peer, peer_kernel, staged, peer_flags };

// Border planes on the high-priority stream, halo pushes right behind them, bulk on the
// low-priority stream; GPUs ordered by events (peer_flags: by counters). `name` is "overlap" (peer,
// halo depth 1), "host-staged" (staged, halo depth 1), "graph" (peer_flags, any halo depth), or
// "b2r" when a transport runs with a halo depth R > 1. `transport_choice`, where the transport was
// chosen for the run, says which and why; choices() reports it (graph: whether it sweeps with
// pushing sweeps, and why not). Throws std::invalid_argument unless every engine is a cuda engine.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name,
                                                          OverlapTransport transport,
                                                          std::string transport_choice = "");

}  // namespace yeex
