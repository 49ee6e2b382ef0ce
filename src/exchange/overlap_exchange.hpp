#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// Border planes on the high-priority stream, halo pushes right behind them, bulk on the
// low-priority stream; GPUs ordered by events. `name` is "overlap" (halo depth 1), or "b2r" when
// it runs with a halo depth R > 1. Throws std::invalid_argument unless every engine is a cuda
// engine.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
