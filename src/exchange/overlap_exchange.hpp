#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// Border planes on the high-priority stream, halo pushes right behind them, bulk on the
// low-priority stream; GPUs ordered by events. Halo depth 1 only. Throws std::invalid_argument
// unless every engine is a cuda engine and the plan has halo depth 1.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
