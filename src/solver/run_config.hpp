// What a run of the solver is given (RunConfig) and the decisions taken from it before a step
// runs: the slab count the exchange backends see, the backend (named or the default, and why),
// and whether the split can run on a grid. The run plan (src/plan/run_plan.hpp) takes each
// decision once and hands the solver the result.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/grid.hpp"
#include "kernels/cuda/cuda_engine_options.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/process_group.hpp"
#include "src/runtime/trace.hpp"

namespace yeex {

// Checkpoints a run writes, and the one it starts from (io/checkpoint.hpp; threads mode).
struct CheckpointConfig {
  std::optional<std::filesystem::path> file;    // write checkpoints here (its folder exists); unset: none
  Index every_steps = 0;                        // > 0: after every step that is a multiple of it
  double every_seconds = 0;                     // > 0: once this much wall time passed since the last one
  std::string deck_text, deck_origin;           // what a resume rebuilds the model from
  std::string run_json;                         // the options that matter and the build (JSON)
  std::optional<std::filesystem::path> resume;  // start from this checkpoint file instead of step 0
  bool due_every() const { return every_steps > 0 || every_seconds > 0; }
};

struct RunConfig {
  std::string engine = "host";
  int precision_bits = 32;   // 32 or 64
  std::vector<int> devices;  // cuda engine: the GPU of each subdomain (empty: GPU 0 alone)
  int subdomains = 1;        // host engine: z-slabs (the cuda engine has one per device)
  std::string exchange;      // backend name as asked; empty: default_exchange()
  // The backend the run plan chose and checked (choose_exchange); empty: run_model chooses from
  // `exchange` itself (bench rows, validate and the tests, which check the config first).
  std::string planned_exchange;
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
  // yeex run --trace (bench --trace): the backend notes every phase of the window's steps here
  // (src/runtime/trace.hpp); run_model also times the window against as many untraced steps.
  // Threads mode only. Null: no trace, and no cost.
  Trace* trace = nullptr;
  CheckpointConfig checkpoint;
};

// What a run of `config` asks of the exchange backends: engine, GPUs (an empty list: GPU 0),
// slab count (one per GPU on the cuda engine, one per rank in MPI mode), halo depth, peer
// access, process model.
ExchangeRequest exchange_request(const RunConfig& config);

// The backend of a run and why it is the one.
struct ExchangeChoice {
  std::string name;
  bool named = false;  // --exchange NAME; else the default for the request
  std::string why;     // one line: "named with --exchange", or the rule that picked the default
};
// The backend a run of `config` uses (the named one, else the default); throws
// std::invalid_argument ("--exchange NAME: why") when it cannot run.
ExchangeChoice choose_exchange(const RunConfig& config);
// choose_exchange(config).name.
std::string chosen_exchange(const RunConfig& config);

// Throws std::invalid_argument when the split or the exchange backend of `config` cannot run for
// this grid (so a run can be refused before anything is written).
void check_run_config(const GridShape& grid, const RunConfig& config);

}  // namespace yeex
