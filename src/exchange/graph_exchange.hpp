#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// graph: the border-first schedule with the counter transport, its steps recorded once and
// replayed as CUDA graphs (see graph_exchange.cu). `name` is "graph", or "b2r" when it runs with a
// halo depth R > 1 (b2r_exchange.cpp), which passes `transport_choice` (why this transport;
// choices() reports it instead of graph's pushing-sweep choice). Throws std::invalid_argument
// unless every engine is a cuda engine.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_graph_exchange(ExchangeContext<Real> context, std::string name);
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_graph_exchange(ExchangeContext<Real> context, std::string name,
                                                        std::string transport_choice);

}  // namespace yeex
