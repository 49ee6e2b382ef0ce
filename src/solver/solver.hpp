// The time loop of one run: H sweep, E sweep, sources, probes, snapshots, progress; at the end
// the field checksum. Files go to RunConfig::output_dir, each written atomically (the caller puts
// the folder in place as a whole: src/app/run_command.cpp). What a run is given and the decisions
// taken from it are in run_config.hpp, its memory in memory_estimate.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/probe_writer.hpp"
#include "src/solver/memory_estimate.hpp"
#include "src/solver/model.hpp"
#include "src/solver/run_config.hpp"

namespace yeex {

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
  // RunConfig::trace: the window's steps, timed by the host's clock around their chunks, against
  // as many untraced steps right after the window (before it where the run ends with it).
  Index traced_steps = 0, untraced_steps = 0;
  double traced_seconds = 0, untraced_seconds = 0;
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
  double traced_seconds_per_step = 0;         // RunConfig::trace: the traced repeat's, as seconds_per_step
};
// verify: the fields' checksum after the warm-up too; the pseudo-random fields are a function of
// the global node, so it is the same, bit for bit, on every split and backend (not timed).
// config.trace: one more repeat after the timed ones, traced (the trace's window is set to it;
// the model holds `steps` more steps).
StepTiming time_model(const Model& model, const RunConfig& config, Index warmup, Index steps, int repeats,
                      bool verify = false);
// Steps a model for time_model should hold beyond warmup + steps * repeats, for the backend to
// settle after the warm-up (StepTiming::settling_steps; coop's trials take at most 4 x 256).
constexpr Index kSettlingSlack = 1024;

}  // namespace yeex
