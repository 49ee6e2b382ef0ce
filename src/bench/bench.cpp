#include "src/bench/bench.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "decomposition/slab_decomposition.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/clock.hpp"
#include "src/solver/model.hpp"
#include "src/solver/solver.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {

Deck bench_deck(const GridShape& grid, Index steps, Index cpml_cells) {
  Deck deck;
  deck.title = "bench: PEC box with one dielectric block";
  deck.grid = grid;
  deck.cell_size = {1e-3, 1e-3, 1e-3};
  deck.steps = steps;
  const Vec3 side{grid.nx * 1e-3, grid.ny * 1e-3, grid.nz * 1e-3};
  deck.materials.push_back({"dielectric", 4.0, 0.0, 1.0, false});
  deck.geometry.push_back({ShapeKind::box,
                           "dielectric",
                           {side[0] / 3, side[1] / 3, side[2] / 3},
                           {2 * side[0] / 3, 2 * side[1] / 3, 2 * side[2] / 3}});
  Source s;
  s.name = "tx";
  s.position = {side[0] / 2 + 0.5e-3, side[1] / 2 + 0.5e-3, side[2] / 2 + 0.5e-3};
  s.waveform = WaveformKind::gaussian;
  s.frequency = 10e9;
  deck.sources.push_back(s);
  if (cpml_cells > 0) {
    deck.title = "bench: box with one dielectric block, CPML on all faces";
    deck.boundary.fill(BoundaryKind::cpml);
    deck.cpml.cells = cpml_cells;
  }
  return deck;
}

Deck stretch_deck(const Deck& base, const GridShape& grid, Index steps) {
  Deck deck = base;
  const std::array<Index, 3> from{base.grid.nx, base.grid.ny, base.grid.nz}, to{grid.nx, grid.ny, grid.nz};
  for (int a = 0; a < 3; ++a) deck.cell_size[a] = base.cell_size[a] * double(from[a]) / double(to[a]);
  deck.grid = grid;
  deck.steps = steps;
  deck.duration.reset();
  return deck;
}

namespace {

// `group`: MPI mode, the ranks of this row (null in threads mode).
RunConfig row_config(const BenchConfig& b, const BenchRow& row, const ProcessGroup* group) {
  RunConfig c;
  c.engine = b.engine;
  c.precision_bits = b.precision_bits;
  c.exchange = row.exchange == "-" ? "" : row.exchange;
  c.halo_depth = row.halo_depth;
  c.peer_access = b.peer_access;
  c.cuda_engine = b.cuda_engine;
  c.exchange_options = b.exchange_options;
  c.probe_slots = 256;
  c.processes = group;
  if (group)  // MPI mode: one slab per rank of the group, on this rank's GPU
    c.devices = b.devices;
  else if (b.engine == "cuda")
    c.devices.assign(b.devices.begin(), b.devices.begin() + row.count);
  else
    c.subdomains = row.count;
  return c;
}

// Why the row cannot run with `config` (empty: it can).
std::string unavailable(const BenchRow& row, const RunConfig& config) {
  try {
    check_run_config(row.grid, config);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// `trace`: the row's traced repeat (time_model), or null.
BenchRow measure(const BenchConfig& b, BenchRow row, const ProcessGroup* group, Trace* trace = nullptr) {
  RunConfig config = row_config(b, row, group);
  row.skipped = unavailable(row, config);
  if (row.skipped.empty() && row.exchange == "coop" && b.deck && b.deck->has_dispersion())
    row.skipped = kCoopNoDispersion;
  if (!row.skipped.empty()) return row;
  config.trace = trace;
  const Index steps = b.warmup + b.steps * (b.repeats + (trace ? 1 : 0)) + kSettlingSlack;
  const auto t0 = Clock::now();
  const Model model =
      build_model(b.deck ? stretch_deck(*b.deck, row.grid, steps) : bench_deck(row.grid, steps, b.cpml_cells));
  const double seconds_model = seconds_since(t0);
  const StepTiming t = time_model(model, config, b.warmup, b.steps, b.repeats, b.verify);
  row.checksum = t.checksum;
  row.setup_seconds = seconds_model + t.seconds_setup;
  std::vector<double> s = t.seconds_per_step;
  std::sort(s.begin(), s.end());
  row.seconds_per_step = s[s.size() / 2];
  row.min_seconds_per_step = s.front();
  row.max_seconds_per_step = s.back();
  std::vector<double> host = t.host_seconds_per_step;
  std::sort(host.begin(), host.end());
  row.host_seconds_per_step = host[host.size() / 2];
  row.exchange_per_step = t.exchange_per_step;
  row.wait_per_step = t.wait_per_step;
  row.exchange_choices = t.exchange_choices;
  row.settling_steps = t.settling_steps;
  row.traced_seconds_per_step = t.traced_seconds_per_step;
  row.gcells_per_second = double(row.grid.cells()) / row.seconds_per_step / 1e9;
  return row;
}

}  // namespace

std::string row_unavailable(const BenchConfig& b, const BenchRow& row) {
  if (!b.processes) return unavailable(row, row_config(b, row, nullptr));
  // MPI mode: the row's group of ranks is made only as it runs; the same checks on the split it
  // will have, one z-slab per rank.
  try {
    const SlabDecomposition split(row.grid, row.count, row.halo_depth);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (row.exchange == "-") return "";
  const std::string why =
      exchange_unavailable(row.exchange, {b.engine, {}, row.count, row.halo_depth, b.peer_access, true});
  return why.empty() ? "" : "--exchange " + row.exchange + ": " + why;
}

std::vector<BenchGrid> bench_grids(const BenchConfig& b) {
  if (b.sizes.empty() && b.deck) return {{0, b.deck->grid}};
  std::vector<BenchGrid> grids;
  for (Index n : b.sizes) grids.push_back({n, {n, n, n}});
  return grids;
}

GridShape weak_grid(const GridShape& grid, int count) { return {grid.nx, grid.ny, grid.nz * count}; }

std::vector<BenchRow> plan_bench(const BenchConfig& b) {
  std::vector<BenchRow> rows;
  for (const auto& [n, grid] : bench_grids(b)) {
    // T1: one device, the grid itself; it is the baseline of both scalings.
    BenchRow base;
    base.scaling = b.strong ? "strong" : "weak";
    base.size = n;
    base.grid = grid;
    base.exchange = "-";
    rows.push_back(base);
    for (const char* scaling : {"strong", "weak"}) {
      if ((scaling == std::string("strong") && !b.strong) || (scaling == std::string("weak") && !b.weak)) continue;
      for (const std::string& exchange : b.exchanges)
        for (int count : b.counts) {
          // One device through the backend (its own cost without neighbours, e.g. coop's persistent
          // kernel against the engine's sweeps): once, in the first scaling (the runs are the same).
          if (count == 1 && scaling == std::string("weak") && b.strong) continue;
          BenchRow row;
          row.scaling = scaling;
          row.size = n;
          row.grid = scaling == std::string("strong") ? grid : weak_grid(grid, count);
          row.exchange = exchange;
          row.count = count;
          row.halo_depth = exchange == "b2r" ? b.halo_depth : b.transport_halo_depth;
          rows.push_back(row);
        }
    }
  }
  return rows;
}

std::vector<BenchRow> run_bench(const BenchConfig& b, const std::function<void(const BenchRow&)>& report) {
  std::vector<BenchRow> rows;
  const auto emit = [&](const BenchRow& r) {
    rows.push_back(r);
    report(r);
  };
  // MPI mode: the group of the first N ranks for every count N (null on the ranks outside it).
  std::map<int, std::unique_ptr<ProcessGroup>> groups;
  if (b.processes)
    for (int count : b.counts) groups[count] = b.processes->first(count);
  if (b.processes && !groups.count(1)) groups[1] = b.processes->first(1);
  bool traced = false;  // BenchConfig::trace: the first row with more than one slab that runs
  const auto measure_on = [&](BenchRow row) {
    if (!b.processes) {
      Trace* trace = b.trace && !traced && row.count > 1 && row_unavailable(b, row).empty() ? b.trace : nullptr;
      traced |= trace != nullptr;
      return measure(b, std::move(row), nullptr, trace);
    }
    const ProcessGroup* group = groups.at(row.count).get();
    return group ? measure(b, std::move(row), group) : row;  // not in this row: go on to the next
  };
  std::size_t base = 0;                    // rows[base]: the T1 row of the current size
  std::map<std::string, double> own_base;  // seconds per step of each backend's 1-device row of the size
  std::map<std::array<Index, 3>, std::uint64_t> first_bits;  // verify: the checksum of each grid's first row
  const auto compare = [&](BenchRow& row) {
    if (!row.checksum) return;
    const auto [first, inserted] =
        first_bits.emplace(std::array<Index, 3>{row.grid.nx, row.grid.ny, row.grid.nz}, *row.checksum);
    row.bits = inserted ? "first" : first->second == *row.checksum ? "same" : "DIFFERS";
  };
  for (BenchRow row : plan_bench(b)) {
    if (row.exchange == "-") {
      row = measure_on(row);
      if (b.processes) row.skipped = broadcast_string(*b.processes, row.skipped);  // every rank skips alike
      compare(row);
      emit(row);
      base = rows.size() - 1;
      own_base.clear();
      continue;
    }
    if (!rows[base].skipped.empty()) continue;  // no T1 of this size: nothing to compare
    row = measure_on(row);
    if (row.skipped.empty()) {
      const bool strong = row.scaling == "strong";
      const auto efficiency = [&](double t1) {
        return strong ? t1 / (row.count * row.seconds_per_step) : t1 / row.seconds_per_step;
      };
      if (row.count == 1) own_base[row.exchange] = row.seconds_per_step;
      row.efficiency = efficiency(rows[base].seconds_per_step);
      if (const auto own = own_base.find(row.exchange); own != own_base.end())
        row.own_efficiency = efficiency(own->second);
    }
    compare(row);
    emit(row);
  }
  return rows;
}

double memory_copy_bandwidth(const std::string& engine, int device) {
#if YEEX_HAVE_CUDA
  if (engine == "cuda") return measure_device_copy_bandwidth(device, std::size_t(2) << 30);
#endif
  (void)engine;
  (void)device;
  // Host: a parallel copy of 512 MiB, median of 7.
  const std::size_t n = (std::size_t(512) << 20) / sizeof(double);
  std::vector<double> a(n, 1.0), b(n, 0.0);
  std::vector<double> seconds;
  for (int rep = 0; rep < 7; ++rep) {
    const auto t0 = Clock::now();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) b[i] = a[i];
    seconds.push_back(seconds_since(t0));
  }
  std::sort(seconds.begin(), seconds.end());
  return 2.0 * n * sizeof(double) / seconds[seconds.size() / 2] / 1e9;
}

nlohmann::json bench_row_json(const BenchRow& r) {
  const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
  return {{"scaling", r.scaling},
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
          {"wait_seconds_per_step", r.wait_per_step},
          {"gcells_per_s", r.gcells_per_second},
          {"setup_seconds", r.setup_seconds},
          {"efficiency", number(r.efficiency)},
          {"efficiency_own", number(r.own_efficiency)},
          {"skipped", r.skipped}};
}

}  // namespace yeex
