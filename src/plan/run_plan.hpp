// A run, planned once before a step runs: from the deck, the command's options (resolved into a
// RunConfig by src/app/split_options.hpp) and the process group to one RunPlan value: engine,
// precision, devices, the slabs and their z ranges, halo depth, the exchange backend and why, dt,
// steps, cells, the memory per GPU and per process, the files the run writes, peer access and
// mode. make_run_plan takes every decision and makes every check that needs no file system;
// `yeex run` then checks the output folder, prints the plan (--dry-run) or hands the solver
// plan.config, whose backend the plan chose (RunConfig::planned_exchange).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/deck.hpp"
#include "src/plan/memory_limits.hpp"
#include "src/solver/memory_estimate.hpp"
#include "src/solver/run_config.hpp"

namespace yeex {

// One z-slab of the plan.
struct PlannedSlab {
  Index k_begin = 0, k_end = 0;  // owned update planes [k_begin, k_end), global
  Index stored_planes = 0;       // owned planes, plus the inert plane nz for the last slab
  int device = -1;               // cuda engine: its GPU (MPI mode: of its rank); -1 on a CPU engine
  int rank = 0;                  // the process that holds it (MPI mode: rank = slab)
};

struct RunPlan {
  std::string title;
  std::string mode = "threads";  // threads or mpi
  int processes = 1;             // MPI mode: the ranks
  std::string engine;
  int precision_bits = 32;
  std::vector<int> devices;  // cuda engine: the distinct GPUs of this process, in slab order
  bool peer_access = true;
  GridShape grid;
  Index cells = 0;
  double dt = 0;
  Index steps = 0;
  Index halo_depth = 1;
  std::vector<PlannedSlab> slabs;
  ExchangeChoice exchange;
  MemoryEstimate memory;
  std::filesystem::path output_dir;
  std::vector<std::string> output_files;                 // names in output_dir
  std::vector<std::string> force_removes;                // an earlier run's files there, which --force removes first
  std::optional<std::filesystem::path> checkpoint_file;  // --checkpoint-every: where checkpoints go
  std::optional<std::filesystem::path> resume_file;      // --resume: the checkpoint the run starts from
  RunConfig config;                                      // what the solver runs: filled here and nowhere else
};

// What make_run_plan takes besides the deck (whose steps and output folder the options have set).
struct PlanRequest {
  RunConfig split;          // resolve_any_split: engine, devices or slabs, backend asked, halo depth, choices
  int precision_bits = 32;  // 32 or 64
  Index check_every = 0;    // RunConfig::check_every
  bool progress = false;    // RunConfig::progress
  std::vector<std::string> output_files;  // the names the run writes (run_output_files)
  CheckpointConfig checkpoint;            // RunConfig::checkpoint
};

// The plan of a run of `deck`; throws std::invalid_argument with the message of the refusal when
// the split or the backend cannot run for this grid (check_run_config's messages). Time and
// memory independent of the step count.
RunPlan make_run_plan(const Deck& deck, const PlanRequest& request);

// Why the plan does not fit the memory it may use (the message of a refusal), or nullopt. The
// GPU's need against its free memory, the node's host need against what is available and the
// cgroup's limit, the process's against its address-space limit.
std::optional<std::string> memory_refusal(const RunPlan& plan, const MemoryLimits& limits);

// The plan as a reader wants it (--dry-run) and as one JSON object (--dry-run --json; the keys
// are documented in docs/running.md).
std::string plan_text(const RunPlan& plan, const MemoryLimits& limits);
nlohmann::json plan_json(const RunPlan& plan, const MemoryLimits& limits);

}  // namespace yeex
