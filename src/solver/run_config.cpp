#include "src/solver/run_config.hpp"

#include <stdexcept>

#include "decomposition/slab_decomposition.hpp"

namespace yeex {

ExchangeRequest exchange_request(const RunConfig& config) {
  const bool cuda = config.engine == "cuda";
  const std::vector<int> devices = config.devices.empty() ? std::vector<int>{0} : config.devices;
  const int slabs = config.processes ? config.processes->size()
                    : cuda           ? static_cast<int>(devices.size())
                                     : config.subdomains;
  return {config.engine,      cuda ? devices : std::vector<int>{}, slabs, config.halo_depth,
          config.peer_access, config.processes != nullptr};
}

namespace {

// Why default_exchange picked `name` for `request`, in its own order of rules.
std::string default_reason(const std::string& name, const ExchangeRequest& request) {
  if (request.mpi_mode)
    return name == "nccl" ? "the default in MPI mode between GPUs"
                          : "the default in MPI mode (host engine, one rank, or nccl cannot run here)";
  if (request.halo_depth > 1) return "the default with --halo-depth above 1";
  if (name == "overlap") return "the default where overlap can run";
  return "the default, as overlap cannot run here: " + exchange_unavailable("overlap", request);
}

}  // namespace

ExchangeChoice choose_exchange(const RunConfig& config) {
  const ExchangeRequest request = exchange_request(config);
  ExchangeChoice choice;
  choice.named = !config.exchange.empty();
  choice.name = choice.named ? config.exchange : default_exchange(request);
  if (const std::string why = exchange_unavailable(choice.name, request); !why.empty())
    throw std::invalid_argument("--exchange " + choice.name + ": " + why);
  choice.why = choice.named ? "named with --exchange" : default_reason(choice.name, request);
  return choice;
}

std::string chosen_exchange(const RunConfig& config) { return choose_exchange(config).name; }

void check_run_config(const GridShape& grid, const RunConfig& config) {
  const SlabDecomposition split(grid, exchange_request(config).subdomains, config.halo_depth);  // throws
  choose_exchange(config);
}

}  // namespace yeex
