#include <algorithm>
#include <utility>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "io/deck.hpp"
#include "src/app/commands.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/app/run_report.hpp"
#include "src/app/split_options.hpp"
#include "src/bench/bench.hpp"
#include "src/bench/bench_markdown.hpp"
#include "src/bench/exchange_model.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/provenance.hpp"
#include "src/runtime/trace.hpp"
#include "src/solver/engines.hpp"
#include "src/solver/field_stats.hpp"
#include "src/solver/solver.hpp"

namespace yeex {
namespace {

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

}  // namespace

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
    if (o.trace) {
      if (world) throw UsageError("--trace: threads mode only (start yeex without mpirun)");
      if (o.steps > kMaxTraceSteps)
        throw UsageError("--trace traces one repeat of --steps steps: at most " + std::to_string(kMaxTraceSteps) +
                         ", got " + std::to_string(o.steps));
      if (std::none_of(b.counts.begin(), b.counts.end(), [](int n) { return n > 1; }))
        throw UsageError("--trace traces the first row with more than one slab; --counts has none");
      check_output_file(*o.trace, "--trace");
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
                  std::isnan(prediction) ? "" : printf_number("%.6e", prediction).c_str(), r.wait_per_step,
                  r.efficiency, std::isnan(r.own_efficiency) ? "" : printf_number("%.4f", r.own_efficiency).c_str(),
                  per_device, r.skipped.c_str(), r.checksum ? hex(*r.checksum).c_str() : "", r.bits.c_str());
    else if (!r.skipped.empty())
      std::printf("%-7s %6s %-15s %-12s %4d   skipped: %s\n", r.scaling.c_str(), size.c_str(), grid.c_str(),
                  r.exchange.c_str(), r.count, r.skipped.c_str());
    else
      std::printf("%-7s %6s %-15s %-12s %4d %10.4f %9.2f %9.4f %9s %9.4f %6.1f%% %7s %9.0f%s\n", r.scaling.c_str(),
                  size.c_str(), grid.c_str(),
                  (r.exchange + (r.halo_depth > 1 ? " R" + std::to_string(r.halo_depth) : "")).c_str(), r.count,
                  r.seconds_per_step * 1e3, r.gcells_per_second, r.exchange_per_step * 1e3,
                  std::isnan(prediction) ? "-" : printf_number("%.4f", prediction * 1e3).c_str(), r.wait_per_step * 1e3,
                  100 * r.efficiency,
                  std::isnan(r.own_efficiency) ? "-" : printf_number("%.1f%%", 100 * r.own_efficiency).c_str(),
                  per_device, b.verify ? ("  " + r.bits).c_str() : "");
    std::fflush(stdout);
    nlohmann::json row = bench_row_json(r);
    row["predicted_exchange_seconds_per_step"] = std::isnan(prediction) ? nlohmann::json() : nlohmann::json(prediction);
    row["effective_gb_per_s_per_device"] = per_device;
    row["fraction_of_copy_bandwidth"] = per_device / copy;
    row["checksum_after_warmup"] = r.checksum ? nlohmann::json(hex(*r.checksum)) : nlohmann::json();
    row["bits"] = r.bits;
    rows.push_back(std::move(row));
  };
  std::optional<Trace> trace;
  if (o.trace) trace.emplace(0, 0);  // time_model moves its window onto the traced repeat
  BenchConfig traced = b;
  traced.trace = trace ? &*trace : nullptr;
  const std::vector<BenchRow> measured = run_bench(traced, report);
  // --trace: the traced row's trace, written as run --trace writes its own.
  for (const BenchRow& r : measured)
    if (trace && r.traced_seconds_per_step > 0) {
      trace->set_metadata("deck", b.deck ? b.deck->title : "bench: the built-in box");
      trace->set_metadata("engine", b.engine);
      trace->set_metadata("backend", r.exchange);
      trace->set_metadata("subdomains", r.count);
      trace->set_metadata("grid", {r.grid.nx, r.grid.ny, r.grid.nz});
      trace->set_metadata("precision", b.precision_bits == 64 ? "f64" : "f32");
      trace->set_metadata("provenance", provenance());
      write_text_atomically(*o.trace, trace->json().dump() + "\n");
      std::fprintf(stderr, "yeex: %s %s on %d slabs: %s\n", r.scaling.c_str(), r.exchange.c_str(), r.count,
                   trace_summary(*trace, r.traced_seconds_per_step, r.seconds_per_step, o.trace->string()).c_str());
    }
  if (trace && trace->size() == 0 && root)
    std::fprintf(stderr, "yeex: --trace: no row with more than one slab ran; nothing traced, %s not written\n",
                 o.trace->string().c_str());
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

}  // namespace yeex
