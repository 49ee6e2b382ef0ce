// The time loop of one run: H sweep, E sweep, sources, probes, snapshots, progress; at the end
// the field checksum. Files go to RunConfig::output_dir, each written atomically (the caller puts
// the folder in place as a whole: src/app/run_command.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/probe_writer.hpp"
#include "kernels/cuda/cuda_engine_options.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/process_group.hpp"
#include "src/solver/model.hpp"

namespace yeex {

struct RunConfig {
  std::string engine = "host";
  int precision_bits = 32;   // 32 or 64
  std::vector<int> devices;  // cuda engine: the GPU of each subdomain (empty: GPU 0 alone)
  int subdomains = 1;        // host engine: z-slabs (the cuda engine has one per device)
  std::string exchange;      // backend name; empty: default_exchange()
  Index halo_depth = 1;
  bool peer_access = true;                          // false (--no-peer): GPUs never enable peer access
  bool progress = false;                            // progress line with ETA on stderr
  std::optional<std::filesystem::path> output_dir;  // unset: write no files
  Index probe_slots = 1024;                         // probe samples buffered on the device between fetches
  // MPI mode: the ranks of the run, rank r holding z-slab r (`devices`: this rank's GPU alone);
  // results, probes and snapshots come together on rank 0. Null: threads mode.
  const ProcessGroup* processes = nullptr;
  // > 0: record the discrete energy W^n (field_stats.hpp) at every step n that is a positive
  // multiple of energy_every and not the last (W^n needs the state after step n + 1 too).
  Index energy_every = 0;
  // > 0: check the fields for NaN/Inf at least every check_every steps (a blow-up is then named
  // to within that many steps); 0: after each chunk of steps (about four a second).
  Index check_every = 0;
  // What the run fixes instead of letting the engine and the backend choose (--arena-unit,
  // --coop-form, --graph-steps, --b2r-transport), and the test seams (tests/gpu).
  CudaEngineOptions cuda_engine;
  ExchangeOptions exchange_options;
};

struct EnergySample {
  Index step = 0;       // n of W^n
  double joules = 0.0;  // over the whole grid
};

struct RunResult {
  std::string engine;
  std::string exchange;
  std::string exchange_choices;  // HaloExchange::choices() at the end of the run
  std::string engine_choices;    // Engine::choices() of this process's engines (engine_choices())
  int subdomains = 1;
  Index halo_depth = 1;
  std::vector<int> devices;
  int precision_bits = 32;
  Index steps = 0;
  Index cells = 0;
  double seconds_setup = 0;      // model to engine (allocation, upload)
  double seconds_stepping = 0;   // the time loop without output
  double seconds_output = 0;     // probe fetches, snapshots, final download and checksum
  double seconds_checks = 0;     // the NaN/Inf health checks between chunks
  double gcells_per_second = 0;  // cells * steps / seconds_stepping / 1e9
  double seconds_exchange = 0;   // slowest subdomain: moving halos (synchronous backends)
  double seconds_wait = 0;       // slowest subdomain: waiting at barriers for the other GPUs
  std::array<std::uint64_t, kComponentCount> component_checksums{};
  std::uint64_t checksum = 0;
  ProbeFile probes;  // the series only without an output folder (then they go to probes.h5 as they come)
  std::vector<EnergySample> energy;          // RunConfig::energy_every
  std::vector<std::filesystem::path> files;  // written, final names
};

// Runs the model on config.subdomains (host) or config.devices.size() (cuda) z-slabs, or in MPI
// mode one slab per rank; throws std::invalid_argument for a split or backend that cannot run,
// std::runtime_error on a numerical blow-up (NaN/Inf: step and node). MPI mode: collective; the
// result is complete on rank 0 (the other ranks have its timings and checksums, no probes), and
// only rank 0 writes files.
RunResult run_model(const Model& model, const RunConfig& config);

// Steady-state timing of the time loop alone (no probes fetched, no output): fields filled with
// pseudo-random values, `warmup` steps, then `repeats` timed runs of `steps` steps, each timed by
// its slowest subdomain's stamps around its work (CUDA events on the cuda engine, the host's clock
// after the work on the others) and by the host's clock around the whole repeat; in MPI mode the
// slowest rank, the ranks starting each repeat together. The model must have at least
// warmup + steps * repeats steps of source samples.
struct StepTiming {
  std::string exchange;
  Index settling_steps =
      0;  // untimed steps after the warm-up, for the backend to settle (HaloExchange::settling_steps)
  std::string exchange_choices;  // HaloExchange::choices() after the last repeat
  int subdomains = 1;
  std::vector<double> seconds_per_step;       // one per repeat: the slowest slab's stamps (Engine::stamp)
  std::vector<double> host_seconds_per_step;  // one per repeat: the host's clock around it
  double exchange_per_step = 0;               // slowest subdomain, synchronous backends only (else 0)
  double wait_per_step = 0;                   // slowest subdomain, waiting at barriers (else 0)
  double seconds_setup = 0;                   // slowest process: engines, exchange, pseudo-random fields
  std::optional<std::uint64_t> checksum;      // verify: the fields' checksum (RunResult::checksum's) after the warm-up
};
// verify: the fields' checksum after the warm-up too; the pseudo-random fields are a function of
// the global node, so it is the same, bit for bit, on every split and backend (not timed).
StepTiming time_model(const Model& model, const RunConfig& config, Index warmup, Index steps, int repeats,
                      bool verify = false);
// Steps a model for time_model should hold beyond warmup + steps * repeats, for the backend to
// settle after the warm-up (StepTiming::settling_steps; coop's trials take at most 4 x 256).
constexpr Index kSettlingSlack = 1024;

// What a run of `config` asks of the exchange backends: engine, GPUs (an empty list: GPU 0),
// slab count (one per GPU on the cuda engine, one per rank in MPI mode), halo depth, peer
// access, process model.
ExchangeRequest exchange_request(const RunConfig& config);
// The backend a run of `config` uses (the named one, else the default); throws
// std::invalid_argument when it cannot run.
std::string chosen_exchange(const RunConfig& config);

// Throws std::invalid_argument when the split or the exchange backend of `config` cannot run for
// this grid (so a run can be refused before anything is written).
void check_run_config(const GridShape& grid, const RunConfig& config);

// Bytes of memory the largest slab's engine needs when a run of this deck is split into `slabs`
// z-slabs with `halo_depth` ghost planes on each side (fields, classes, source samples, CPML psi,
// each array rounded as the cuda engine allocates it); cheap, so that a deck can be refused before
// the model is built. A split the grid cannot take is estimated as one slab of a plane.
std::size_t estimate_engine_bytes(const Deck& deck, int precision_bits, int slabs = 1, Index halo_depth = 1);

}  // namespace yeex
