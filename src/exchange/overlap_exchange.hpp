#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// overlap: the border-first schedule with the peer transport (see overlap_exchange.cu). `name` is
// "overlap", or "b2r" when it runs with a halo depth R > 1 (b2r_exchange.cpp), which passes
// `transport_choice` (why this transport; choices() reports it). Throws std::invalid_argument
// unless every engine is a cuda engine.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name);
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name,
                                                          std::string transport_choice);

}  // namespace yeex
