#pragma once

#include <string>
#include <vector>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// One persistent cooperative kernel per GPU that runs whole chunks of steps, halos included
// (see coop_exchange.cu). Throws std::invalid_argument where it cannot run.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_coop_exchange(ExchangeContext<Real> context, std::string name);

// Empty when the persistent kernel can run with one subdomain on each GPU of `devices`, else
// why not: a GPU listed twice, no cooperative launch, or a kernel that cannot be co-resident.
std::string coop_exchange_unavailable(const std::vector<int>& devices);

}  // namespace yeex
