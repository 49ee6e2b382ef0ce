#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// `name` is "host-staged", or "b2r" when it is the host engine's transport with R > 1.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
