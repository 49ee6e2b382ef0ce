#include <cstdio>

#include "src/app/commands.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/app/split_options.hpp"
#include "src/exchange/registry.hpp"
#include "src/solver/engines.hpp"

namespace yeex {

int exchanges_command(const SplitOptions& split, const ProcessGroup* world) {
  SplitOptions options = split;
  options.engine = agreed_engine(world, split.engine);
  return agreed(world, [&] {
    ExchangeRequest request;
    if (world) {  // MPI mode: one slab per rank (no GPU is chosen just to list)
      if (split.halo_depth < 1) throw UsageError("--halo-depth must be at least 1");
      request = {resolve_engine(options.engine), {}, world->size(), split.halo_depth, !split.no_peer, true};
      if (world->rank() != 0) return 0;
    } else {
      request = exchange_request(resolve_split(options));
    }
    std::printf("# exchange backends for the %s engine, %d subdomain(s), halo depth %lld, %s\n", request.engine.c_str(),
                request.subdomains, (long long)request.halo_depth,
                world ? ("MPI mode (" + std::to_string(world->size()) + " ranks)").c_str() : "threads mode");
    std::printf("%-12s %-10s %s\n", "exchange", "runs here", "mechanism");
    for (const auto& e : exchange_catalogue()) {
      const std::string why = exchange_unavailable(e.name, request);
      std::printf("%-12s %-10s %s%s\n", e.name.c_str(), why.empty() ? "yes" : "no", e.description.c_str(),
                  why.empty() ? "" : (" (" + why + ")").c_str());
    }
    return 0;
  });
}

int engines_command() {
  std::printf("%-8s %-10s %s\n", "engine", "runs here", "description");
  for (const auto& e : engine_list())
    std::printf("%-8s %-10s %s%s\n", e.name.c_str(), e.available ? "yes" : "no", e.description.c_str(),
                e.available ? "" : (" (" + e.why_not + ")").c_str());
  return 0;
}

}  // namespace yeex
