// The sub-commands behind the CLI. Each returns the process exit code: 0 success, 1 a run that
// failed (numerical blow-up, device error), 2 bad input (nothing written). MPI mode is in
// src/app/mpi_mode.hpp. Each command is in its own file, src/app/<name>_command.cpp (engines
// with exchanges); what they share is in split_options.hpp and run_report.hpp.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "decomposition/grid.hpp"
#include "io/deck.hpp"
#include "src/app/output_folder.hpp"
#include "src/cli/usage_error.hpp"
#include "src/runtime/process_group.hpp"
#include "src/solver/solver.hpp"

namespace yeex {

// How a run is split: engine, GPUs or host slabs, exchange backend, halo depth.
struct SplitOptions {
  std::string engine;             // empty: cuda when a GPU is visible, else host
  std::optional<int> gpus;        // cuda: the first N visible GPUs (default: all)
  std::vector<int> devices;       // cuda: these GPUs, in this order (overrides gpus)
  std::optional<int> subdomains;  // z-slabs: host (default 1); cuda: spread over the GPUs (default one per GPU)
  std::string exchange;           // empty: the default backend
  Index halo_depth = 1;
  bool no_peer = false;             // cuda: never enable peer access (host-staged paths only)
  bool no_pin = false;              // cuda: leave each GPU's host thread unpinned (src/runtime/placement.hpp)
  bool oversubscribe_gpus = false;  // MPI mode: let ranks of one node share a GPU
  // What the run fixes instead of letting the engine and the backends choose (apply_choices).
  std::string arena_unit = "auto";     // cuda: the field arena's slot unit (auto, 2M, 32M, 1G)
  std::string coop_form = "auto";      // coop: its kernel form (auto, inlined, called)
  Index graph_steps = 0;               // graph (and b2r's counters): steps a replayed block (0: 32)
  std::string b2r_transport = "auto";  // b2r with peer access: auto, counters, events
};

// The choices of `o` into `config` (RunConfig::cuda_engine, exchange_options); throws UsageError
// for an unknown value, and for a choice that the run's engine or named backend would ignore.
void apply_choices(const SplitOptions& o, RunConfig& config);

struct RunOptions {
  std::optional<std::filesystem::path> deck;  // unset: the built-in default problem
  SplitOptions split;
  std::string precision;  // f32 or f64; empty: f32, or with --resume the checkpoint's
  std::optional<Index> steps;
  std::optional<std::filesystem::path> output;
  std::string checkpoint_every;                         // --checkpoint-every: steps or a wall time; empty: none
  std::optional<std::filesystem::path> checkpoint_dir;  // default: OUTPUT.checkpoint
  std::optional<std::filesystem::path> resume;          // --resume: a checkpoint file or its folder
  bool json = false;
  bool quiet = false;
  bool dry_run = false;   // check the deck, the split and the memory, print the plan, run nothing
  bool force = false;     // write into a folder that holds files, removing an earlier run's first
  Index check_every = 0;  // NaN/Inf checks at least every N steps (0: after each chunk, RunConfig::check_every)
  std::optional<std::filesystem::path> trace;  // --trace FILE: the phases of a window of steps (src/runtime/trace.hpp)
  std::string trace_steps;                     // --trace-steps FIRST:COUNT; empty: trace_window's default
  std::string command_line;
};

struct BenchOptions {
  SplitOptions split;  // engine, GPUs (the pool), backends via `exchanges`
  std::string precision = "f32";
  std::vector<Index> sizes{256};              // cube edges; empty with `deck`: the deck's own grid
  std::optional<std::filesystem::path> deck;  // bench this deck's model instead of the built-in box
  std::vector<int> counts;                    // device or slab counts; default 1 and every power of 2 up to the pool
  std::vector<std::string> exchanges;         // default: every backend of the catalogue
  std::string scaling = "strong";             // strong, weak or both
  Index cpml = 0;                             // CPML cells on every face (0: the PEC box)
  Index steps = 100;
  Index warmup = 20;
  int repeats = 5;
  std::optional<std::filesystem::path> json;
  std::optional<std::filesystem::path> markdown;  // the efficiency tables as markdown (bench_markdown.hpp)
  bool verify = false;  // hash every row's fields after the warm-up and compare them (BenchConfig::verify)
  bool csv = false;
  std::optional<std::filesystem::path> p2p_json;  // a yeex-p2p sweep: predicted exchange per row
  // --trace FILE: one more repeat of the first row with more than one slab, traced (src/runtime/trace.hpp)
  std::optional<std::filesystem::path> trace;
  std::string command_line;
};

struct ValidateOptions {
  SplitOptions split;
  std::string precision = "f32";
  bool quick = false;
  std::vector<std::string> only;  // problem names; empty: all
  std::optional<std::filesystem::path> json;
  std::string command_line;
};

// `yeex survey` (src/app/survey_command.cpp, docs/survey.md).
struct SurveyOptions {
  SplitOptions split;  // engine, --devices (kept in their order), --subdomains (CPU engines), --no-pin
  std::string precision = "f32";
  std::string budget = "15m";                    // seconds, or with s, m or h
  std::optional<std::filesystem::path> output;   // measure and write the report here
  std::optional<std::filesystem::path> from;     // re-render this survey's report (no measurement)
  std::optional<std::filesystem::path> what_if;  // another machine's link matrices
  std::string command_line;
};

// `world`: MPI mode's ranks (yeex started by mpirun), null in threads mode. In MPI mode every
// rank calls the command; rank 0 prints and writes the files.
int run_command(const RunOptions& options, const ProcessGroup* world = nullptr);
// `yeex validate`: 0 every check passed, 1 a check failed, 2 bad options.
int validate_command(const ValidateOptions& options);
int bench_command(const BenchOptions& options, const ProcessGroup* world = nullptr);
int engines_command();
int survey_command(const SurveyOptions& options);
int exchanges_command(const SplitOptions& split, const ProcessGroup* world = nullptr);

// The report every run writes into its output folder.
inline constexpr const char* kRunReportName = "run.json";
// The files a run of `deck` writes into its output folder.
std::vector<std::string> run_output_files(const Deck& deck);
// Memory available to an engine (host RAM or free GPU memory), bytes.
std::size_t available_memory(const std::string& engine, int device);

}  // namespace yeex
