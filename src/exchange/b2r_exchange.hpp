#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// b2r: B+2R, a halo depth R > 1 on the transport the run can take (see b2r_exchange.cpp).
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_b2r_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
