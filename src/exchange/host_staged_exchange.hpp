#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// host-staged: every halo plane through host memory, no peer access. On the host engine the
// synchronous copies through a staging buffer (HostStagedExchange, host_staged_exchange.cpp); on
// GPUs the border-first schedule with the staged transport (make_host_staged_gpu_exchange). `name`
// is "host-staged", or "b2r" when it runs with a halo depth R > 1 (b2r_exchange.cpp).
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_exchange(ExchangeContext<Real> context, std::string name);

// The GPU part (host_staged_gpu.cu; CUDA builds only). Throws std::invalid_argument unless every
// engine is a cuda engine.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_gpu_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
