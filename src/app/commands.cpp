#include "src/app/commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "decomposition/slab_decomposition.hpp"
#include "io/atomic_file.hpp"
#include "io/deck.hpp"
#include "kernels/field_layout.hpp"
#include "io/probe_writer.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/bench/bench.hpp"
#include "src/bench/bench_markdown.hpp"
#include "src/bench/exchange_model.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/interrupts.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/provenance.hpp"
#include "src/solver/engines.hpp"
#include "src/solver/field_stats.hpp"
#include "src/solver/solver.hpp"
#include "src/validate/validation.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {
namespace {

constexpr double kBytesPerCellStep = 72.0;  // f32 streaming minimum: 12 arrays read+written per step

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

std::string gib(std::size_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f GiB", bytes / double(1u << 30));
  return b;
}

// One number as printf's `spec` writes it.
std::string format(const char* spec, double value) {
  char b[64];
  std::snprintf(b, sizeof b, spec, value);
  return b;
}

nlohmann::json run_report(const Model& model, const RunResult& r, const std::string& command_line) {
  nlohmann::json j;
  j["format"] = "yeex-run-1";
  j["command"] = command_line;
  j["deck"] = model.deck.to_json();
  j["provenance"] = provenance();
  j["run"] = {{"engine", r.engine},
              {"engine_description", engine_description(r.engine)},
              {"engine_choices", r.engine_choices},
              {"exchange", r.exchange},
              {"exchange_choices", r.exchange_choices},
              {"subdomains", r.subdomains},
              {"halo_depth", r.halo_depth},
              {"devices", r.devices},
              {"precision", r.precision_bits == 64 ? "f64" : "f32"},
              {"steps", r.steps},
              {"cells", r.cells},
              {"dt_s", model.dt},
              {"material_classes", model.classes.size()}};
  j["timings_s"] = {{"setup", r.seconds_setup},
                    {"stepping", r.seconds_stepping},
                    {"compute", std::max(0.0, r.seconds_stepping - r.seconds_exchange - r.seconds_wait)},
                    {"exchange", r.seconds_exchange},
                    {"wait", r.seconds_wait},
                    {"output", r.seconds_output},
                    {"checks", r.seconds_checks},
                    {"per_step", r.steps ? r.seconds_stepping / r.steps : 0.0},
                    {"definitions",
                     {{"setup", "the model onto the engines: allocation, upload, the exchange backend"},
                      {"stepping", "the time loop without output and checks (host clock, every slab's work finished)"},
                      {"exchange, wait",
                       "the slowest slab's seconds moving halos and waiting at barriers for the other slabs; "
                       "synchronous backends only (0 where the exchange overlaps the sweeps)"},
                      {"compute", "stepping - exchange - wait"},
                      {"output", "probe fetches, snapshots, the final download and checksum"},
                      {"checks", "the NaN/Inf scans of the fields between chunks of steps (--check-every)"}}}};
  const double bytes = kBytesPerCellStep * (r.precision_bits / 32);
  j["performance"] = {
      {"gcells_per_s", r.gcells_per_second},
      {"effective_gb_per_s", r.gcells_per_second * bytes},
      {"definition", "Gcells/s = cells x steps / stepping time; effective GB/s = Gcells/s x " +
                         std::to_string(int(bytes)) + " B/cell/step (separate H and E sweeps, streaming minimum)"}};
  nlohmann::json sums;
  sums["fields"] = hex(r.checksum);
  for (Component c : kAllComponents) sums[std::string(component_name(c))] = hex(r.component_checksums[int(c)]);
  sums["definition"] =
      "FNV-1a 64, one round per node value (its raw 32 or 64 bits as one word, not bytes), k,j,i order; fields "
      "combines Ex..Hz";
  j["checksum"] = sums;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.files) files.push_back(f.filename().string());
  files.push_back(kRunReportName);
  j["files"] = files;
  return j;
}

void print_run_summary(const Model& model, const RunResult& r, const std::filesystem::path* out) {
  const auto& c = model.cell;
  std::printf("yeex: %s\n", model.deck.title.c_str());
  std::printf("  grid      %lld x %lld x %lld cells of %g x %g x %g mm, %lld steps, dt = %.4g ps\n",
              (long long)model.grid.nx, (long long)model.grid.ny, (long long)model.grid.nz, c[0] * 1e3, c[1] * 1e3,
              c[2] * 1e3, (long long)r.steps, model.dt * 1e12);
  std::printf("  engine    %s, %s, %d subdomain(s), exchange %s, halo depth %lld\n", r.engine.c_str(),
              r.precision_bits == 64 ? "float64" : "float32", r.subdomains, r.exchange.c_str(),
              (long long)r.halo_depth);
  if (!r.engine_choices.empty()) std::printf("  engine    %s: %s\n", r.engine.c_str(), r.engine_choices.c_str());
  if (!r.exchange_choices.empty()) std::printf("  exchange  %s: %s\n", r.exchange.c_str(), r.exchange_choices.c_str());
  std::printf("  stepping  %.3f s  %.3f Gcells/s  %.1f GB/s effective (%d B/cell/step)\n", r.seconds_stepping,
              r.gcells_per_second, r.gcells_per_second * kBytesPerCellStep * (r.precision_bits / 32),
              int(kBytesPerCellStep) * (r.precision_bits / 32));
  std::printf("  setup     %.3f s   output %.3f s   NaN/Inf checks %.3f s\n", r.seconds_setup, r.seconds_output,
              r.seconds_checks);
  std::printf("  checksum  %s\n", hex(r.checksum).c_str());
  if (out) std::printf("  output    %s/ (run.json + %zu files)\n", out->string().c_str(), r.files.size());
}

}  // namespace

std::vector<std::string> run_output_files(const Deck& deck) {
  std::vector<std::string> files{kRunReportName};
  if (!deck.probes.empty()) files.emplace_back(kProbeFileName);
  for (const auto& snapshot : deck.snapshots) {
    files.push_back(snapshot.name + ".h5");
    files.push_back(snapshot.name + ".xdmf");
  }
  return files;
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
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(256, '\n');
  }
  return std::size_t(-1);
}

namespace {

// "2 GPU(s)", "4 slab(s) on 1 GPU(s)" (cuda) or "3 slab(s)" (host).
std::string split_summary(const RunConfig& r) {
  if (r.engine != "cuda") return std::to_string(r.subdomains) + " slab(s)";
  std::vector<int> gpus = r.devices;
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  const std::string on = std::to_string(gpus.size()) + " GPU(s)";
  return gpus.size() == r.devices.size() ? on : std::to_string(r.devices.size()) + " slab(s) on " + on;
}

// The options that only the cuda engine reads are refused with a CPU engine rather than ignored.
void check_cpu_engine_options(const SplitOptions& o, const std::string& engine) {
  if (engine == "cuda") return;
  if (o.no_peer)
    throw UsageError("--no-peer needs the cuda engine (the " + engine + " engine has no peer access to turn off)");
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

namespace {

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
  // One entry per slab: a GPU that holds several slabs is listed once for each.
  config.devices = spread_slabs(gpus, o.subdomains.value_or(static_cast<int>(gpus.size())));
  return config;
}

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

// A list option naming one value twice would time the same rows twice.
template <typename T>
void refuse_repeats(const std::string& option, const std::vector<T>& values) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::find(values.begin(), values.begin() + i, values[i]) != values.begin() + i) {
      std::ostringstream value;
      value << values[i];
      throw UsageError(option + ": " + value.str() + " is listed twice");
    }
}

// A bench grid as the user named it: "--size N", or the deck's own grid.
std::string grid_label(Index size, const GridShape& grid) {
  if (size > 0) return "--size " + std::to_string(size);
  return "the deck's grid " + std::to_string(grid.nx) + " x " + std::to_string(grid.ny) + " x " +
         std::to_string(grid.nz);
}

// A bench whose every requested row would be skipped (more slabs than planes, a halo deeper than
// a slab, a backend that cannot run here) is bad input, not a table of "skipped" lines.
void refuse_if_nothing_runs(const BenchConfig& b) {
  std::string why;
  for (const BenchRow& row : plan_bench(b)) {
    if (row.exchange == "-") continue;
    const std::string reason = row_unavailable(b, row);
    if (reason.empty()) return;
    if (why.empty())
      why = row.exchange + ", " + std::to_string(row.count) + " device(s), " + grid_label(row.size, row.grid) + ": " +
            reason;
  }
  throw UsageError("none of the requested rows can run here (" + why + ")");
}

// The "mpi" section of run.json and bench JSON: the MPI library and every rank, host and GPU.
nlohmann::json mpi_report(const nlohmann::json& ranks) {
  return {{"ranks", ranks.size()},
          {"library", mpi_library_version()},
          {"cuda_aware", mpi_cuda_aware()},
          {"by_rank", ranks}};
}

// How a run's halos travel in MPI mode.
std::string halo_path(const RunConfig& config, const std::string& exchange) {
  if (exchange != "mpi") return "device memory (NCCL)";
  if (config.engine != "cuda") return "host memory";
  return mpi_cuda_aware() ? "device memory (CUDA-aware MPI)" : "staged through pinned host buffers";
}

}  // namespace

int run_command(const RunOptions& o, const ProcessGroup* world) {
  const SingleProcessGroup alone;
  const ProcessGroup& group = world ? *world : alone;
  const bool root = group.rank() == 0;
  // Rank 0 reads the deck; every rank parses rank 0's text (the file need exist on rank 0 only).
  const std::string text =
      broadcast_string(group, agreed(world, [&] { return o.deck && root ? read_deck_file(*o.deck) : std::string(); }));
  Deck deck = agreed(world, [&] { return o.deck ? parse_deck_string(text, o.deck->string()) : default_deck(); });
  if (!o.quiet && root)
    for (const std::string& warning : deck.warnings) std::cerr << "yeex: " << warning << "\n";
  agreed(world, [&] {
    if (o.steps) {
      if (*o.steps < 1 || *o.steps > kMaxSteps)
        throw UsageError("--steps must be from 1 to " + std::to_string(kMaxSteps) + ", got " +
                         std::to_string(*o.steps));
      deck.steps = *o.steps;
      deck.duration.reset();
    }
  });
  if (o.output) deck.output_dir = o.output->string();
  RunConfig config = resolve_any_split(o.split, world);
  const std::string& engine = config.engine;
  const int bits = precision_bits(o.precision);
  const std::filesystem::path out = deck.output_dir;
  const int slabs = exchange_request(config).subdomains;
  const std::size_t need =
      bytes_per_process(estimate_engine_bytes(deck, bits, slabs, config.halo_depth), config, slabs);
  OutputFolderContents earlier;  // rank 0: what the output folder holds before the run
  agreed(world, [&] {
    const std::size_t have = available_memory(engine, engine == "cuda" ? config.devices.front() : 0);
    if (need > have)
      throw UsageError("the model needs about " + gib(need) + " on the " + engine + " engine but only " + gib(have) +
                       " is available (grid.cells " + std::to_string(deck.grid.nx) + " x " +
                       std::to_string(deck.grid.ny) + " x " + std::to_string(deck.grid.nz) + ")");
    try {
      check_run_config(deck.grid, config);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (root) {
      check_output_directory(out, run_output_files(deck));
      earlier = output_folder_contents(out);
      check_output_folder_is_free(out, earlier, o.force);
    }
  });
  // The model's own checks (materials, material combinations, sources in PEC) hold for a dry run too.
  const Model model = agreed(world, [&] { return build_model(deck); });
  if (o.dry_run) {
    if (root)
      std::printf(
          "yeex: %s: %lld x %lld x %lld cells, %lld steps, about %s on the %s engine%s, %d subdomain(s), "
          "exchange %s; nothing run (--dry-run)\n",
          deck.title.c_str(), (long long)deck.grid.nx, (long long)deck.grid.ny, (long long)deck.grid.nz,
          (long long)deck.step_count(), gib(need).c_str(), engine.c_str(),
          engine == "cuda" ? " per GPU"
          : world          ? " per node"
                           : "",
          slabs, chosen_exchange(config).c_str());
    if (root && !earlier.earlier_run.empty())
      std::printf("yeex: --force would remove the %zu file(s) of an earlier run from %s\n", earlier.earlier_run.size(),
                  out.string().c_str());
    return 0;
  }
  const std::filesystem::path made = first_missing_folder(out);  // empty: the folder exists
  agreed(world, [&] {
    if (!root) return;
    clear_earlier_run(out, earlier);  // --force: the folder never holds two runs' files
    if (!o.quiet && !earlier.earlier_run.empty())
      std::fprintf(stderr, "yeex: --force: removed the %zu file(s) of an earlier run from %s\n",
                   earlier.earlier_run.size(), out.string().c_str());
    std::filesystem::create_directories(out);
  });

  config.precision_bits = bits;
  config.check_every = o.check_every;
  config.progress = root && !o.quiet && !o.json;
  config.output_dir = out;
  const RunResult result = [&] {
    const InterruptWatch watch;  // Ctrl-C: stop after the current chunk, remove the files begun
    try {
      return run_model(model, config);
    } catch (...) {
      if (root) remove_empty_folders(out, made);  // a failed run leaves no empty output folder behind
      throw;
    }
  }();
  const nlohmann::json ranks = world ? rank_table(*world, engine == "cuda" ? config.devices.front() : -1) : nullptr;
  if (!root) return 0;
  nlohmann::json report = run_report(model, result, o.command_line);
  report["run"]["mode"] = world ? "mpi" : "threads";
  if (world) {
    report["mpi"] = mpi_report(ranks);
    report["mpi"]["halo_path"] = halo_path(config, result.exchange);
    if (engine == "cuda") {
      report["run"]["devices"] = nlohmann::json::array();
      for (const auto& r : ranks) report["run"]["devices"].push_back(r["gpu"]["index"]);
    }
  }
  try {
    write_text_atomically(out / kRunReportName, report.dump(2) + "\n");
  } catch (...) {  // e.g. a full disk: no output without its run.json, no half of a run's output
    std::error_code ec;
    for (const auto& file : result.files) std::filesystem::remove(file, ec);
    remove_empty_folders(out, made);
    throw;
  }
  if (o.json) {
    std::cout << report.dump(2) << "\n";
  } else if (!o.quiet) {
    print_run_summary(model, result, &out);
    if (world)
      std::printf("  mpi       %d ranks, %s, halos: %s\n", group.size(), mpi_library_version().c_str(),
                  report["mpi"]["halo_path"].get<std::string>().c_str());
  }
  return 0;
}

int bench_command(const BenchOptions& o, const ProcessGroup* world) {
  const bool root = !world || world->rank() == 0;
  // The engine and every GPU (or slab count) available; MPI mode: the ranks, one GPU each.
  const RunConfig pool = resolve_any_split(o.split, world);
  const BenchConfig b = agreed(world, [&] {
    if (!o.split.exchange.empty())
      throw UsageError("--exchange " + o.split.exchange +
                       ": bench compares backends, named with --exchanges (e.g. "
                       "--exchanges p2p,overlap)");
    if (!world && pool.engine == "cuda" && most_slabs_per_gpu(pool.devices) > 1)
      throw UsageError(
          "bench measures scaling over GPUs, one z-slab each: leave --subdomains out (it puts several "
          "slabs on one GPU, for run and validate)");
    BenchConfig b;
    b.engine = pool.engine;
    b.precision_bits = precision_bits(o.precision);
    b.sizes = o.sizes;
    if (o.deck) b.deck = parse_deck_file(*o.deck);
    if (b.sizes.empty() && !b.deck) b.sizes = {256};  // with a deck: its own grid (bench_grids)
    b.devices = pool.devices;
    b.processes = world;
    // The most devices (CPU engines: slabs, --subdomains, default 4) a row may use.
    const int available = world                ? world->size()
                          : b.engine == "cuda" ? static_cast<int>(pool.devices.size())
                                               : o.split.subdomains.value_or(4);
    b.counts = o.counts;
    if (b.counts.empty()) {
      for (int n = 1; n <= available; n *= 2) b.counts.push_back(n);
      if (b.counts.back() != available) b.counts.push_back(available);
    }
    for (int n : b.counts)
      if (n < 1 || ((b.engine == "cuda" || world) && n > available))
        throw UsageError("--counts " + std::to_string(n) + ": " + std::to_string(available) +
                         (world ? " rank(s) in this MPI job" : " GPU(s) available"));
    b.exchanges = o.exchanges;
    if (b.exchanges.empty())
      for (const auto& e : exchange_catalogue())
        if (world ? e.mpi_mode : e.threads_mode) b.exchanges.push_back(e.name);
    for (const auto& e : b.exchanges)
      if (const auto why = exchange_unavailable(e, {}); why.rfind("unknown", 0) == 0)
        throw UsageError("--exchanges: " + why);
    refuse_repeats("--counts", b.counts);
    refuse_repeats("--exchanges", b.exchanges);
    b.strong = o.scaling != "weak";
    b.weak = o.scaling != "strong";
    b.halo_depth = std::max<Index>(o.split.halo_depth, 2);
    b.transport_halo_depth = world ? o.split.halo_depth : 1;
    b.peer_access = !o.split.no_peer;
    b.cuda_engine = pool.cuda_engine;
    b.exchange_options = pool.exchange_options;
    b.cpml_cells = o.cpml;
    for (Index n : b.sizes)
      if (o.cpml > 0 && n < 2 * o.cpml + kCpmlMinInteriorCells)
        throw UsageError("--cpml " + std::to_string(o.cpml) + ": --size " + std::to_string(n) + " leaves fewer than " +
                         std::to_string(kCpmlMinInteriorCells) + " interior cells");
    b.steps = o.steps;
    b.warmup = o.warmup;
    b.verify = o.verify;
    b.repeats = o.repeats;
    for (const auto& [n, grid] : bench_grids(b)) {
      // Each row's grid: the model's own checks (sources in PEC, material combinations) before the
      // table starts, and its largest slab (the strong 1-device row holds the whole grid) at b2r's
      // depth, one slab a GPU (or rank), or on the CPU all of the row's slabs at once.
      std::size_t need = 0;
      for (int count : b.counts) {
        const GridShape g = b.weak ? weak_grid(grid, count) : grid;
        const Deck deck = b.deck ? stretch_deck(*b.deck, g, 1) : bench_deck(g, 1, b.cpml_cells);
        if (b.deck) build_model(deck);
        need = std::max(
            need, bytes_per_process(estimate_engine_bytes(deck, b.precision_bits, count, b.halo_depth), pool, count));
      }
      const std::size_t have = available_memory(b.engine, b.devices.empty() ? 0 : b.devices.front());
      if (need > have)
        throw UsageError(grid_label(n, grid) + ": needs about " + gib(need) + ", " + gib(have) + " available");
    }
    if (o.json && root) check_output_file(*o.json, "--json");
    if (o.markdown && root) check_output_file(*o.markdown, "--markdown");
    if (o.json && o.markdown && std::filesystem::absolute(*o.json) == std::filesystem::absolute(*o.markdown))
      throw UsageError("--json and --markdown name the same file, " + o.json->string());
    refuse_if_nothing_runs(b);
    return b;
  });
  const std::optional<P2PSweep> sweep = agreed(world, [&]() -> std::optional<P2PSweep> {
    if (!o.p2p_json) return std::nullopt;
    try {
      return load_p2p_sweep(*o.p2p_json);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  });
  // The sweep's prediction for the row's halo messages (src/bench/exchange_model.hpp); cuda in
  // threads mode only (MPI mode: this rank knows its own GPU alone).
  const auto predicted = [&](const BenchRow& r) {
    if (!sweep || world || b.engine != "cuda" || !r.skipped.empty() || r.count < 2) return double(NAN);
    return predicted_exchange_seconds(*sweep, r.grid, {b.devices.begin(), b.devices.begin() + r.count}, r.halo_depth,
                                      std::size_t(b.precision_bits / 8));
  };
  const nlohmann::json ranks = world ? rank_table(*world, b.engine == "cuda" ? b.devices.front() : -1) : nullptr;

  const int device = b.devices.empty() ? 0 : b.devices.front();
  const double copy = root ? memory_copy_bandwidth(b.engine, device) : 0.0;  // rank 0's device
  const double bytes = kBytesPerCellStep * b.precision_bits / 32;
  if (!root) {
  } else if (o.csv) {
    std::printf(
        "scaling,size,nx,ny,nz,exchange,devices,halo_depth,seconds_per_step,gcells_per_s,exchange_s_per_step,"
        "predicted_exchange_s_per_step,wait_s_per_step,efficiency,efficiency_own,effective_gb_per_s_per_device,skipped,"
        "checksum_after_warmup,bits\n");
  } else {
    if (b.cpml_cells > 0)
      std::printf("# CPML of %lld cells on all six faces (instead of PEC walls)\n", (long long)b.cpml_cells);
    std::printf("# yeex bench: %s, %s engine, %s, median of %d x %lld steps after %lld warm-up (%s)\n",
                !b.deck           ? "PEC box with one dielectric block"
                : b.sizes.empty() ? ("deck '" + b.deck->title + "' on its own grid").c_str()
                                  : ("deck '" + b.deck->title + "' stretched onto each grid").c_str(),
                b.engine.c_str(), b.precision_bits == 64 ? "float64" : "float32", b.repeats, (long long)b.steps,
                (long long)b.warmup, b.engine == "cuda" ? "CUDA events, the slowest GPU" : "host clock");
    std::printf(
        "# memory copy bandwidth of one device: %.0f GB/s (read + write); effective GB/s = %d B/cell/step x Gcells/s "
        "per device\n",
        copy, int(bytes));
    if (!b.peer_access) std::printf("# --no-peer: peer access between GPUs is off\n");
    if (const std::string set = tuning_environment_line(); !set.empty())
      std::printf("# environment: %s\n", set.c_str());
    if (world)
      std::printf("# MPI mode: %d ranks (%s), one %s each; a row of N uses ranks 0..N-1 while the others wait\n",
                  world->size(), mpi_library_version().c_str(), b.engine == "cuda" ? "GPU" : "z-slab");
    std::printf(
        "# strong efficiency = T1 / (N x TN) on the same global grid; weak = T1 / TN with T1's grid per device "
        "(stacked along z); T1 measured in this run\n");
    std::printf(
        "# eff.: T1 = the engine on 1 device (the '-' row); own: T1 = the backend's own 1-device row (what adding "
        "devices costs it)\n");
    std::printf("# exchange, wait: per step, slowest device, synchronous backends only (host clock)\n");
    if (sweep)
      std::printf("# pred: %s; sweep from %s%s\n", exchange_model_definition().c_str(), sweep->source.c_str(),
                  world                ? " (not applied: MPI mode)"
                  : b.engine == "cuda" ? ""
                                       : (" (not applied: " + b.engine + " engine)").c_str());
    else
      std::printf("# pred: the exchange time a yeex-p2p size sweep predicts; give one with --p2p-json FILE\n");
    if (b.verify)
      std::printf(
          "# bits (--verify): the fields' checksum after the warm-up against the first row of the grid: same, or "
          "DIFFERS\n");
    std::printf("%-7s %6s %-15s %-12s %4s %10s %9s %9s %9s %9s %7s %7s %9s%s\n", "scaling", "size", "grid", "exchange",
                "N", "ms/step", "Gcells/s", "exch ms", "pred ms", "wait ms", "eff.", "own", "GB/s/dev",
                b.verify ? "  bits" : "");
  }
  nlohmann::json rows = nlohmann::json::array();
  const auto report = [&](const BenchRow& r) {
    if (!root) return;
    const std::string grid =
        std::to_string(r.grid.nx) + "x" + std::to_string(r.grid.ny) + "x" + std::to_string(r.grid.nz);
    const std::string size = r.size > 0 ? std::to_string(r.size) : "deck";  // the deck's own grid
    const double per_device = r.gcells_per_second * bytes / r.count;
    const double prediction = predicted(r);
    if (o.csv)
      std::printf("%s,%lld,%lld,%lld,%lld,%s,%d,%lld,%.6e,%.4f,%.6e,%s,%.6e,%.4f,%s,%.1f,\"%s\",%s,%s\n",
                  r.scaling.c_str(), (long long)r.size, (long long)r.grid.nx, (long long)r.grid.ny,
                  (long long)r.grid.nz, r.exchange.c_str(), r.count, (long long)r.halo_depth, r.seconds_per_step,
                  r.gcells_per_second, r.exchange_per_step,
                  std::isnan(prediction) ? "" : format("%.6e", prediction).c_str(), r.wait_per_step, r.efficiency,
                  std::isnan(r.own_efficiency) ? "" : format("%.4f", r.own_efficiency).c_str(), per_device,
                  r.skipped.c_str(), r.checksum ? hex(*r.checksum).c_str() : "", r.bits.c_str());
    else if (!r.skipped.empty())
      std::printf("%-7s %6s %-15s %-12s %4d   skipped: %s\n", r.scaling.c_str(), size.c_str(), grid.c_str(),
                  r.exchange.c_str(), r.count, r.skipped.c_str());
    else
      std::printf("%-7s %6s %-15s %-12s %4d %10.4f %9.2f %9.4f %9s %9.4f %6.1f%% %7s %9.0f%s\n", r.scaling.c_str(),
                  size.c_str(), grid.c_str(),
                  (r.exchange + (r.halo_depth > 1 ? " R" + std::to_string(r.halo_depth) : "")).c_str(), r.count,
                  r.seconds_per_step * 1e3, r.gcells_per_second, r.exchange_per_step * 1e3,
                  std::isnan(prediction) ? "-" : format("%.4f", prediction * 1e3).c_str(), r.wait_per_step * 1e3,
                  100 * r.efficiency,
                  std::isnan(r.own_efficiency) ? "-" : format("%.1f%%", 100 * r.own_efficiency).c_str(), per_device,
                  b.verify ? ("  " + r.bits).c_str() : "");
    std::fflush(stdout);
    rows.push_back(
        {{"scaling", r.scaling},
         {"size", r.size},
         {"grid", {r.grid.nx, r.grid.ny, r.grid.nz}},
         {"exchange", r.exchange},
         {"exchange_choices", r.exchange_choices},
         {"settling_steps", r.settling_steps},
         {"devices", r.count},
         {"halo_depth", r.halo_depth},
         {"seconds_per_step_median", r.seconds_per_step},
         {"seconds_per_step_min", r.min_seconds_per_step},
         {"seconds_per_step_max", r.max_seconds_per_step},
         {"host_clock_seconds_per_step_median", r.host_seconds_per_step},
         {"exchange_seconds_per_step", r.exchange_per_step},
         {"predicted_exchange_seconds_per_step",
          std::isnan(prediction) ? nlohmann::json() : nlohmann::json(prediction)},
         {"wait_seconds_per_step", r.wait_per_step},
         {"gcells_per_s", r.gcells_per_second},
         {"setup_seconds", r.setup_seconds},
         {"efficiency", r.efficiency},
         {"efficiency_own", std::isnan(r.own_efficiency) ? nlohmann::json() : nlohmann::json(r.own_efficiency)},
         {"effective_gb_per_s_per_device", per_device},
         {"fraction_of_copy_bandwidth", per_device / copy},
         {"skipped", r.skipped},
         {"checksum_after_warmup", r.checksum ? nlohmann::json(hex(*r.checksum)) : nlohmann::json()},
         {"bits", r.bits}});
  };
  const std::vector<BenchRow> measured = run_bench(b, report);
  if ((o.json || o.markdown) && root) {
    nlohmann::json j{
        {"format", "yeex-bench-2"},
        {"command", o.command_line},
        {"provenance", provenance()},
        {"engine", b.engine},
        {"engine_description", engine_description(b.engine)},
        {"mode", world ? "mpi" : "threads"},
        {"cpml_cells", b.cpml_cells},
        {"precision", b.precision_bits == 64 ? "f64" : "f32"},
        {"devices", b.devices},
        {"peer_access", b.peer_access},
        {"steps_per_repeat", b.steps},
        {"warmup_steps", b.warmup},
        {"verify", b.verify},
        {"repeats", b.repeats},
        {"copy_bandwidth_gb_per_s", copy},
        {"bytes_per_cell_step", bytes},
        {"definitions",
         {{"gcells_per_s", "global cells x steps / time / 1e9, time = median of the repeats"},
          {"seconds_per_step",
           "a repeat's time: the slowest device's from a CUDA event recorded before its "
           "first work to one after its last (both lanes), over the steps; CPU engines: "
           "the host's clock after the work; median, min and max of the repeats"},
          {"host_clock_seconds_per_step_median",
           "the host's clock around each whole repeat, every device's work "
           "finished (launch and thread overheads included); median"},
          {"strong efficiency", "T1 / (N x TN), same global grid, T1 = 1 device in this run"},
          {"weak efficiency",
           "T1 / TN, the same cells per device: size nx x ny x nz on 1 device, nx x ny x (N nz) on N"},
          {"efficiency_own",
           "the same ratio with T1 = the backend's own 1-device row of the size (what adding "
           "devices costs that backend); null without one"},
          {"exchange, wait", "host-clock seconds per step of the slowest device; synchronous backends only"},
          {"setup_seconds",
           "host-clock seconds of a row before its warm-up: the model, the engines (allocation, "
           "upload), the exchange and the pseudo-random fields; the slowest process"},
          {"predicted exchange", exchange_model_definition()},
          {"checksum_after_warmup",
           "--verify: run.json's checksum (FNV-1a 64 over every node value, chained over "
           "the slabs) of the fields after the warm-up, which start from pseudo-random "
           "values that depend on the global node alone; null without --verify"},
          {"bits",
           "--verify: 'first' for a grid's first row, 'same' where a row's checksum equals it, "
           "'DIFFERS' where it does not (the bench then exits 1)"}}},
        {"rows", rows}};
    if (world) {
      j["mpi"] = mpi_report(ranks);
      if (b.engine == "cuda") {
        j["devices"] = nlohmann::json::array();
        for (const auto& r : ranks) j["devices"].push_back(r["gpu"]["index"]);
      }
    }
    if (sweep) {
      nlohmann::json pairs = nlohmann::json::array();
      for (const auto& c : sweep->curves) pairs.push_back(std::to_string(c.src) + "->" + std::to_string(c.dst));
      j["p2p_sweep"] = {{"source", sweep->source}, {"pairs", pairs}, {"applied", b.engine == "cuda" && !world}};
    }
    if (o.json) write_text_atomically(*o.json, j.dump(2) + "\n");
    if (o.markdown) write_text_atomically(*o.markdown, bench_markdown(j));
  }
  // --verify: every backend and device count must have computed the same fields.
  if (root)
    for (const BenchRow& r : measured)
      if (r.bits == "DIFFERS") {
        std::fprintf(stderr,
                     "yeex: bench --verify: %s %s on %d device(s) gave other fields than the first row of its grid\n",
                     r.scaling.c_str(), r.exchange.c_str(), r.count);
        return 1;
      }
  return 0;
}

int validate_command(const ValidateOptions& o) {
  ValidationContext context;
  context.run = resolve_split(o.split);
  context.run.precision_bits = precision_bits(o.precision);
  context.quick = o.quick;
  if (o.json) check_output_file(*o.json, "--json");
  const RunConfig& r = context.run;
  try {  // refused before the header: unknown problems, a split or backend a problem cannot run
    check_validation(context, o.only);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::printf("# yeex validate%s: %s engine, %s, %s, exchange %s\n", o.quick ? " --quick" : "", r.engine.c_str(),
              r.precision_bits == 64 ? "float64" : "float32", split_summary(r).c_str(),
              r.exchange.empty() ? "default" : r.exchange.c_str());
  std::printf("# error: relative = |measured - reference| / |reference|; pass when error <= tolerance\n");
  std::printf("%-12s %-58s %14s %14s %10s %10s  %s\n", "problem", "quantity", "measured", "reference", "error",
              "tolerance", "result");
  nlohmann::json problems = nlohmann::json::array();
  const auto report = [&](const ProblemOutcome& p) {
    for (const CheckRow& row : p.rows) {
      const std::string quantity = row.quantity + (row.unit.empty() ? "" : " (" + row.unit + ")");
      std::printf("%-12s %-58s %14.8g %14.8g %10.3e %10.3e  %s\n", p.name.c_str(), quantity.c_str(), row.measured,
                  row.reference, row.error, row.tolerance, row.pass ? "PASS" : "FAIL");
    }
    if (!p.failure.empty()) std::printf("%-12s run failed: %s  FAIL\n", p.name.c_str(), p.failure.c_str());
    std::printf("%-12s %.1f s\n", "", p.seconds);
    std::fflush(stdout);
    problems.push_back(to_json(p));
  };
  std::vector<ProblemOutcome> outcomes;
  try {
    outcomes = run_validation(context, o.only, report);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  int failed = 0;
  for (const auto& p : outcomes) failed += !p.pass();
  std::printf("# %zu problem(s), %d failed: %s\n", outcomes.size(), failed, failed ? "FAIL" : "PASS");
  if (o.json) {
    const nlohmann::json j{{"format", "yeex-validate-1"},
                           {"command", o.command_line},
                           {"provenance", provenance()},
                           {"engine", r.engine},
                           {"engine_description", engine_description(r.engine)},
                           {"precision", r.precision_bits == 64 ? "f64" : "f32"},
                           {"devices", r.devices},
                           {"subdomains", exchange_request(r).subdomains},
                           {"exchange", r.exchange.empty() ? "default" : r.exchange},
                           {"quick", o.quick},
                           {"pass", failed == 0},
                           {"problems", problems}};
    write_text_atomically(*o.json, j.dump(2) + "\n");
  }
  return failed ? 1 : 0;
}

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
