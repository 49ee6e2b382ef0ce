#include "src/plan/run_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "decomposition/slab_decomposition.hpp"

namespace yeex {
namespace {

std::string split_source(const RunConfig& config, int slabs) {
  const std::string n = std::to_string(slabs);
  if (config.processes) return n + " MPI ranks (one slab each)";
  if (config.engine == "cuda") return n + " slabs (--gpus, --devices or --subdomains)";
  return "--subdomains " + n;
}

}  // namespace

RunPlan make_run_plan(const Deck& deck, const PlanRequest& request) {
  RunPlan plan;
  RunConfig& config = plan.config = request.split;
  config.precision_bits = request.precision_bits;
  config.check_every = request.check_every;
  config.progress = request.progress;
  config.output_dir = deck.output_dir;
  // Many probes: fewer samples buffered between fetches, so that the engines' buffers and their
  // host copies hold about 2 Mi values at most (the memory then grows linearly with the probes).
  std::size_t probe_components = 0;
  for (const auto& p : deck.probes) probe_components += p.components.size();
  if (probe_components > 0)
    config.probe_slots =
        std::clamp<Index>((Index(2) << 20) / static_cast<Index>(probe_components), 16, config.probe_slots);
  config.checkpoint = request.checkpoint;
  const ExchangeRequest asked = exchange_request(config);
  // A split that cannot be is refused naming what asked for it: the option, or the ranks.
  const SlabDecomposition split = [&] {
    try {
      return SlabDecomposition(deck.grid, asked.subdomains, config.halo_depth);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(split_source(config, asked.subdomains) + " with grid.cells " +
                                  std::to_string(deck.grid.nx) + " x " + std::to_string(deck.grid.ny) + " x " +
                                  std::to_string(deck.grid.nz) + ": " + e.what());
    }
  }();
  plan.exchange = choose_exchange(config);  // throws for a backend that cannot run
  config.planned_exchange = plan.exchange.name;
  if (deck.has_dispersion() && plan.exchange.name == "coop") throw std::invalid_argument(kCoopNoDispersion);

  const bool cuda = config.engine == "cuda";
  plan.title = deck.title;
  plan.mode = config.processes ? "mpi" : "threads";
  plan.processes = config.processes ? config.processes->size() : 1;
  plan.engine = config.engine;
  plan.precision_bits = config.precision_bits;
  if (cuda)
    for (int d : asked.devices)
      if (std::find(plan.devices.begin(), plan.devices.end(), d) == plan.devices.end()) plan.devices.push_back(d);
  plan.peer_access = config.peer_access;
  plan.grid = deck.grid;
  plan.cells = deck.grid.cells();
  plan.dt = deck.dt();
  plan.steps = deck.step_count();
  plan.halo_depth = config.halo_depth;
  for (int s = 0; s < split.size(); ++s) {
    const SlabSubdomain& sub = split.subdomain(s);
    PlannedSlab slab{sub.k_begin, sub.k_end, sub.stored_planes, -1, config.processes ? s : 0};
    // MPI mode: every rank knows its own GPU alone.
    if (cuda && !config.processes) slab.device = asked.devices[s];
    if (cuda && config.processes && s == config.processes->rank()) slab.device = asked.devices.front();
    plan.slabs.push_back(slab);
  }
  plan.memory = estimate_run_memory(deck, config, split);
  plan.output_dir = deck.output_dir;
  plan.output_files = request.output_files;
  plan.checkpoint_file = config.checkpoint.file;
  plan.resume_file = config.checkpoint.resume;
  return plan;
}

std::optional<std::string> memory_refusal(const RunPlan& plan, const MemoryLimits& limits) {
  const MemoryEstimate& m = plan.memory;
  const std::string cells = "(grid.cells " + std::to_string(plan.grid.nx) + " x " + std::to_string(plan.grid.ny) +
                            " x " + std::to_string(plan.grid.nz) + ")";
  const bool cuda = plan.engine == "cuda";
  // The engine's own memory: the GPU's, or on a CPU engine the host's (every slab of the node).
  const std::size_t engine_need = cuda ? m.device_total() : m.node_total();
  const std::optional<std::size_t> engine_have = cuda ? limits.device_free : limits.available;
  if (engine_have && engine_need > *engine_have)
    return "the model needs about " + gib(engine_need) + " on the " + plan.engine + " engine but only " +
           gib(*engine_have) + " is available " + cells;
  if (cuda && limits.available && m.node_total() > *limits.available)
    return "the model needs about " + gib(m.node_total()) + " of host memory but only " + gib(*limits.available) +
           " is available (MemAvailable in /proc/meminfo) " + cells;
  if (limits.cgroup && m.node_total() > *limits.cgroup)
    return "the model needs about " + gib(m.node_total()) + " of host memory but the cgroup memory limit is " +
           gib(*limits.cgroup) + " (" + limits.cgroup_file + ") " + cells;
  if (limits.address_space && m.host_total() > *limits.address_space)
    return "the model needs about " + gib(m.host_total()) +
           " of host memory in this process but its address-space limit (RLIMIT_AS, ulimit -v) is " +
           gib(*limits.address_space) + " " + cells;
  return std::nullopt;
}

}  // namespace yeex
