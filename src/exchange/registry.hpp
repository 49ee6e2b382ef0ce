// The exchange backends by name (--exchange NAME): what each is, whether it can run for a given
// engine, GPU set, halo depth and process model (threads or MPI mode; and why not), and its
// factory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

struct ExchangeRequest {
  std::string engine = "host";
  std::vector<int> devices;  // GPU of each subdomain (cuda engine)
  int subdomains = 1;
  Index halo_depth = 1;
  bool peer_access = true;  // false: --no-peer
  bool mpi_mode = false;    // started by mpirun: one rank per subdomain (else threads mode)
};

struct ExchangeInfo {
  std::string name;
  std::string description;
  bool threads_mode = true;  // runs in one process, one thread per subdomain
  bool mpi_mode = false;     // runs under mpirun, one rank per subdomain
};

// Why coop refuses a model with dispersive materials (kernels/dispersion.hpp): its persistent
// kernel sweeps E itself and stores the sent planes into the neighbours from the sweep, with no
// place for the engines' dispersion pass.
inline constexpr const char* kCoopNoDispersion =
    "coop does not run dispersive materials (its persistent kernel has no dispersion pass): use --exchange graph "
    "or overlap";

// Every backend this build knows, in the order `--exchange list` shows them.
std::vector<ExchangeInfo> exchange_catalogue();
// Empty when backend `name` can run for `request`, else the reason it cannot (an unknown name too).
std::string exchange_unavailable(const std::string& name, const ExchangeRequest& request);
// The backend a run uses when none is named.
std::string default_exchange(const ExchangeRequest& request);
// Throws std::invalid_argument when the backend cannot run (see exchange_unavailable).
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_exchange(const std::string& name, ExchangeContext<Real> context);

}  // namespace yeex
