#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// `name` is "p2p", or "b2r" when it runs with a halo depth R > 1 under --no-peer.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_p2p_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
