// `yeex bench`: the time loop alone, on a PEC box with one dielectric block, for a list of exchange
// backends and device counts, in strong scaling (fixed global grid) and weak scaling (fixed cells
// per device). The 1-device time T1 of each size is measured in the same invocation; strong
// efficiency = T1 / (N * TN), weak efficiency = T1 / TN. T1 is the engine's own sweep on one
// device; each row also has the same ratio against its backend's 1-device row (own_efficiency),
// which isolates what more devices cost a backend from what its one-device path costs (coop's
// persistent kernel runs slower than the engine's sweeps even with no neighbour).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/deck.hpp"
#include "kernels/cuda/cuda_engine_options.hpp"
#include "src/exchange/halo_exchange.hpp"
#include "src/runtime/process_group.hpp"
#include "src/runtime/trace.hpp"

namespace yeex {

// The bench problem: nx x ny x nz cells of 1 mm, a dielectric block (eps_r 4) over the middle
// third of every axis, one z dipole at the centre, `steps` steps; PEC walls, or CPML slabs of
// `cpml_cells` cells on all six faces.
Deck bench_deck(const GridShape& grid, Index steps, Index cpml_cells = 0);

// `base` stretched onto `grid`: each cell size scaled by base cells / grid cells, so the box keeps
// its size and every object, source and probe its place relative to it; `steps` steps.
Deck stretch_deck(const Deck& base, const GridShape& grid, Index steps);

struct BenchConfig {
  std::string engine = "host";
  int precision_bits = 32;
  std::vector<Index> sizes{256};       // cube edges (see bench_grids); empty with a deck: its own grid
  std::optional<Deck> deck;            // the problem (stretched onto each grid); unset: bench_deck()
  std::vector<int> counts{1};          // devices (cuda) or host slabs; 1 is always measured
  std::vector<int> devices;            // cuda: the GPUs to use, in order (count N takes the first N)
  std::vector<std::string> exchanges;  // backends for counts > 1
  bool strong = true, weak = false;
  Index halo_depth = 2;              // of b2r
  Index transport_halo_depth = 1;    // of the other backends (MPI mode: --halo-depth)
  Index cpml_cells = 0;              // CPML slabs on all faces (0: PEC box)
  bool peer_access = true;           // false: --no-peer
  CudaEngineOptions cuda_engine;     // --arena-unit (RunConfig::cuda_engine)
  ExchangeOptions exchange_options;  // --coop-form, --graph-steps, --b2r-transport
  Index steps = 100, warmup = 20;
  int repeats = 5;
  // --verify: each row's fields hashed after the warm-up (time_model's checksum) and compared with
  // the first row of its grid: every backend and device count must give the same bits.
  bool verify = false;
  // MPI mode: the ranks, one device (or slab) each; a row of N devices runs on ranks 0..N-1 (a
  // group of their own) while the other ranks wait. `devices` is this rank's GPU. Null: threads.
  const ProcessGroup* processes = nullptr;
  // --trace: the first row with more than one slab that runs gets one more repeat, traced here
  // (RunConfig::trace; threads mode). Null: none.
  Trace* trace = nullptr;
};

struct BenchRow {
  std::string scaling;           // "strong" or "weak"
  Index size = 0;                // cube edge as given; 0: the deck's own grid (bench_grids)
  GridShape grid;                // global grid of this row
  std::string exchange;          // "-" for the 1-device baseline
  std::string exchange_choices;  // what the backend chose while it ran (HaloExchange::choices)
  Index settling_steps = 0;      // untimed steps after the warm-up while the backend settled
  int count = 1;
  Index halo_depth = 1;
  double seconds_per_step = 0;  // median of the repeats (each: the slowest device's CUDA events)
  double min_seconds_per_step = 0, max_seconds_per_step = 0;
  double host_seconds_per_step = 0;                 // median of the repeats by the host's clock around each
  double exchange_per_step = 0, wait_per_step = 0;  // synchronous backends, slowest device
  double gcells_per_second = 0;
  double setup_seconds = 0;  // host clock before the warm-up: model, engines, exchange, random fields
  double efficiency = 1;     // against the 1-device time of the same size
  double own_efficiency =
      std::numeric_limits<double>::quiet_NaN();  // against this backend's own 1-device row (NaN: none)
  std::string skipped;                           // why the row did not run, if it did not
  std::optional<std::uint64_t> checksum;         // verify: the fields' checksum after the warm-up
  std::string bits;                    // verify: "same" as the grid's first row (or "first"), "DIFFERS"; "" unverified
  double traced_seconds_per_step = 0;  // the row BenchConfig::trace traced: its traced repeat's (else 0)
};

// The grids of a bench, each with its cube edge: a cube per size, or, with a deck and no sizes,
// the deck's own grid (edge 0). Each is the global grid in strong scaling and a device's share in weak
// scaling, where N devices stack N of them along z.
struct BenchGrid {
  Index size = 0;
  GridShape grid;
};
std::vector<BenchGrid> bench_grids(const BenchConfig& config);
// A grid's share of `count` devices in weak scaling: `grid` stacked `count` times along z.
GridShape weak_grid(const GridShape& grid, int count);

// The rows run_bench measures, in its order, unmeasured: per size the engine's 1-device row
// (exchange "-"), then each scaling's rows of every backend and count.
std::vector<BenchRow> plan_bench(const BenchConfig& config);
// Why `row` cannot run on the config's devices, slabs or ranks (empty: it can).
std::string row_unavailable(const BenchConfig& config, const BenchRow& row);

// Runs every row, calling `report` as each finishes (rows of one size: baseline first). MPI
// mode: collective; the rows are complete on rank 0 (a rank outside a row's group has it
// without timings).
std::vector<BenchRow> run_bench(const BenchConfig& config, const std::function<void(const BenchRow&)>& report);

// Copy bandwidth of the engine's memory (GB/s, bytes read + written).
double memory_copy_bandwidth(const std::string& engine, int device);

// A row's measurements as the bench JSON and survey.json hold them (non-finite values as null);
// yeex bench adds what it alone knows (the predicted exchange, bandwidth, the bits).
nlohmann::json bench_row_json(const BenchRow& row);

}  // namespace yeex
