#include "src/app/split_options.hpp"

#include <algorithm>

#include "decomposition/slab_decomposition.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/exchange/registry.hpp"
#include "src/plan/memory_limits.hpp"
#include "src/runtime/placement.hpp"
#include "src/solver/engines.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {

int precision_bits(const std::string& precision) { return precision == "f64" ? 64 : 32; }

std::string resolve_engine(const std::string& requested) {
  const std::string name = requested.empty() ? default_engine() : requested;
  for (const auto& e : engine_list())
    if (e.name == name) {
      if (!e.available) throw UsageError("--engine " + name + ": cannot run here: " + e.why_not);
      return name;
    }
  throw UsageError("--engine " + name + ": unknown engine (yeex engines lists them)");
}

std::size_t available_memory(const std::string& engine, int device) {
#if YEEX_HAVE_CUDA
  if (engine == "cuda") {
    std::size_t free_bytes = 0, total = 0;
    cuda_memory_info(device, free_bytes, total);
    return free_bytes;
  }
#endif
  (void)engine;
  (void)device;
  return read_memory_limits().available.value_or(std::size_t(-1));
}

namespace {

// The options that only the cuda engine reads are refused with a CPU engine rather than ignored.
void check_cpu_engine_options(const SplitOptions& o, const std::string& engine) {
  if (engine == "cuda") return;
  if (o.no_peer)
    throw UsageError("--no-peer needs the cuda engine (the " + engine + " engine has no peer access to turn off)");
  if (o.no_pin) throw UsageError("--no-pin needs the cuda engine (the " + engine + " engine's threads are OpenMP's)");
  if (o.oversubscribe_gpus)
    throw UsageError("--oversubscribe-gpus needs the cuda engine (the " + engine + " engine uses no GPU)");
}

}  // namespace

void apply_choices(const SplitOptions& o, RunConfig& config) {
  const auto refuse_unless = [&](bool fits, const std::string& option, const std::string& value,
                                 const std::string& needs) {
    if (!fits) throw UsageError(option + " " + value + " " + needs);
  };
  const std::optional<std::size_t> unit = arena_unit_named(o.arena_unit);
  if (!unit) throw UsageError("--arena-unit " + o.arena_unit + ": must be auto, 2M, 32M or 1G");
  refuse_unless(*unit == 0 || config.engine == "cuda", "--arena-unit", o.arena_unit,
                "needs the cuda engine (the " + config.engine + " engine has no field arena)");
  config.cuda_engine.arena_unit = *unit;

  using Options = ExchangeOptions;
  const bool any_backend = config.exchange.empty();
  if (o.coop_form == "auto")
    config.exchange_options.coop_form = Options::CoopForm::automatic;
  else if (o.coop_form == "inlined")
    config.exchange_options.coop_form = Options::CoopForm::inlined;
  else if (o.coop_form == "called")
    config.exchange_options.coop_form = Options::CoopForm::called;
  else
    throw UsageError("--coop-form " + o.coop_form + ": must be auto, inlined or called");
  refuse_unless(o.coop_form == "auto" || any_backend || config.exchange == "coop", "--coop-form", o.coop_form,
                "is coop's, and this run uses --exchange " + config.exchange);

  if (o.graph_steps < 0) throw UsageError("--graph-steps must be at least 1");
  refuse_unless(o.graph_steps == 0 || any_backend || config.exchange == "graph" || config.exchange == "b2r",
                "--graph-steps", std::to_string(o.graph_steps),
                "is for the backends that replay steps (graph, b2r), and this run uses --exchange " + config.exchange);
  config.exchange_options.graph_steps = o.graph_steps;

  if (o.b2r_transport == "auto")
    config.exchange_options.b2r_transport = Options::B2rTransport::automatic;
  else if (o.b2r_transport == "counters")
    config.exchange_options.b2r_transport = Options::B2rTransport::counters;
  else if (o.b2r_transport == "events")
    config.exchange_options.b2r_transport = Options::B2rTransport::events;
  else
    throw UsageError("--b2r-transport " + o.b2r_transport + ": must be auto, counters or events");
  refuse_unless(o.b2r_transport == "auto" || any_backend || config.exchange == "b2r", "--b2r-transport",
                o.b2r_transport, "is b2r's, and this run uses --exchange " + config.exchange);
  if (config.engine != "cuda" && (o.coop_form != "auto" || o.graph_steps != 0 || o.b2r_transport != "auto"))
    throw UsageError(
        "--coop-form, --graph-steps and --b2r-transport are for backends of the cuda engine (this run "
        "uses the " +
        config.engine + " engine)");
}

// Engine, GPUs, slabs and backend of a run; throws UsageError for what cannot run here.
RunConfig resolve_split(const SplitOptions& o) {
  RunConfig config;
  config.engine = resolve_engine(o.engine);
  config.exchange = o.exchange;
  config.halo_depth = o.halo_depth;
  config.peer_access = !o.no_peer;
  if (o.halo_depth < 1) throw UsageError("--halo-depth must be at least 1");
  if (o.oversubscribe_gpus)
    throw UsageError(
        "--oversubscribe-gpus is for MPI mode (ranks of a node sharing a GPU); without mpirun, "
        "--subdomains puts several slabs on one GPU");
  check_cpu_engine_options(o, config.engine);
  if (config.engine != "cuda") {  // a CPU engine
    if (!o.devices.empty() || o.gpus)
      throw UsageError("--gpus and --devices need the cuda engine; the " + config.engine +
                       " engine splits with --subdomains");
    config.subdomains = o.subdomains.value_or(1);
    if (config.subdomains < 1) throw UsageError("--subdomains must be at least 1");
    return config;
  }
  int visible = 0;
#if YEEX_HAVE_CUDA
  visible = cuda_device_count();
#endif
  if (o.subdomains && *o.subdomains < 1) throw UsageError("--subdomains must be at least 1");
  std::vector<int> gpus;
  if (!o.devices.empty()) {
    for (std::size_t i = 0; i < o.devices.size(); ++i) {
      if (o.devices[i] < 0 || o.devices[i] >= visible)
        throw UsageError("--devices: GPU " + std::to_string(o.devices[i]) + " does not exist (" +
                         std::to_string(visible) + " visible: 0.." + std::to_string(visible - 1) + ")");
      for (std::size_t j = 0; j < i; ++j)
        if (o.devices[j] == o.devices[i])
          throw UsageError("--devices: GPU " + std::to_string(o.devices[i]) + " is listed twice");
    }
    gpus = o.devices;
  } else {
    // --subdomains N alone: no more GPUs than slabs.
    const int n = o.gpus.value_or(o.subdomains ? std::min(*o.subdomains, visible) : visible);
    if (n < 1) throw UsageError("--gpus must be at least 1");
    if (n > visible)
      throw UsageError("--gpus " + std::to_string(n) + ": only " + std::to_string(visible) + " GPU(s) visible");
    for (int d = 0; d < n; ++d) gpus.push_back(d);
  }
  if (o.subdomains && *o.subdomains < static_cast<int>(gpus.size()))
    throw UsageError("--subdomains " + std::to_string(*o.subdomains) + " is fewer than the " +
                     std::to_string(gpus.size()) + " GPUs chosen: every GPU holds at least one z-slab");
  // ---- placement (src/runtime/placement.hpp): without --devices, the GPUs in the chain order
  // whose slowest neighbour link is fastest; each slab's host thread pinned near its GPU.
  const Topology topology = detect_topology(gpus);
  if (const std::vector<int> ordered = order_devices(topology); o.devices.empty() && ordered.size() == gpus.size())
    gpus = ordered;
  // One entry per slab: a GPU that holds several slabs is listed once for each.
  config.devices = spread_slabs(gpus, o.subdomains.value_or(static_cast<int>(gpus.size())));
  set_thread_pinning(o.no_pin ? std::vector<std::vector<int>>{} : local_cpus(topology, config.devices));
  return config;
}

namespace {

// MPI mode: one z-slab per rank, this rank's GPU (src/app/mpi_mode.hpp). Local checks only.
RunConfig resolve_mpi_split(const SplitOptions& o, const ProcessGroup& world) {
  RunConfig config;
  config.engine = resolve_engine(o.engine);
  config.exchange = o.exchange;
  config.halo_depth = o.halo_depth;
  config.peer_access = !o.no_peer;
  config.processes = &world;
  if (o.halo_depth < 1) throw UsageError("--halo-depth must be at least 1");
  if (o.gpus)
    throw UsageError(
        "--gpus: under mpirun each rank drives one GPU, so the GPU count is the number of ranks "
        "(mpirun -np N); --devices maps the ranks of a node to its GPUs");
  if (o.subdomains && *o.subdomains != world.size())
    throw UsageError("--subdomains " + std::to_string(*o.subdomains) + ": under mpirun each rank holds one z-slab (" +
                     std::to_string(world.size()) + " ranks); leave --subdomains out");
  check_cpu_engine_options(o, config.engine);
  if (config.engine != "cuda") {  // a CPU engine
    if (!o.devices.empty()) throw UsageError("--devices needs the cuda engine");
    return config;
  }
  config.devices = {choose_rank_gpu(world, o)};
  return config;
}

}  // namespace

// MPI mode: rank 0's engine (its default when none is named), so that every rank runs the same.
std::string agreed_engine(const ProcessGroup* world, const std::string& requested) {
  if (!world || !requested.empty()) return requested;
  return broadcast_string(*world, world->rank() == 0 ? default_engine() : std::string());
}

// The split of a run in either mode; MPI mode also refuses ranks sharing a GPU (collective).
RunConfig resolve_any_split(SplitOptions o, const ProcessGroup* world) {
  o.engine = agreed_engine(world, o.engine);
  RunConfig config = agreed(world, [&] {
    RunConfig c = world ? resolve_mpi_split(o, *world) : resolve_split(o);
    apply_choices(o, c);
    return c;
  });
  if (world && config.engine == "cuda") check_gpu_sharing(*world, config.devices.front(), o.oversubscribe_gpus);
  return config;
}

// Bytes one device (or the host) needs for a split into `slabs` whose largest slab's engine needs
// `per_slab` (estimate_engine_bytes): a GPU holds its own slabs (the most any GPU holds); host
// slabs share the node's memory (MPI mode: the node's ranks' slabs).
std::size_t bytes_per_process(std::size_t per_slab, const RunConfig& config, int slabs) {
  if (config.engine == "cuda")
    return per_slab * static_cast<std::size_t>(std::max(1, most_slabs_per_gpu(config.devices)));
  if (config.processes) return per_slab * config.processes->placement().local_size;
  return per_slab * static_cast<std::size_t>(slabs);
}

}  // namespace yeex
