#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// ncclSend/ncclRecv between the GPUs, one communicator per GPU (rank = subdomain index), in
// threads mode or MPI mode (context.processes set); any halo depth. Throws
// std::invalid_argument unless every engine is a cuda engine.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_nccl_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
