#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// The synchronous staged exchange through host buffers, for engines whose memory the host reads
// and writes (the host engine; on GPUs the registry takes the staged border-first transport).
// `name` is "host-staged", or "b2r" when it runs with a halo depth R > 1.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
