#pragma once

#include <string>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

// MPI_Isend/MPI_Irecv of the halo planes between ranks (MPI mode: one subdomain per rank); any
// engine, any halo depth. Throws std::invalid_argument outside MPI mode.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_mpi_exchange(ExchangeContext<Real> context, std::string name);

}  // namespace yeex
