// `yeex survey`: a machine evaluated in one command, within a time budget. The survey is a list
// of phases, each one `yeex bench` (src/bench/bench.hpp) on some GPUs, sizes and settings, run in
// order of what the report needs most; a phase that would not end within the budget is skipped
// and says so. docs/survey.md describes the phases and the report.
//
//   scaling-<size>   strong and weak, every backend, GPU counts 1..N, peer access on; small and
//                    medium first, large last
//   peer-off         the medium grid again with peer access off (cuda)
//   link-<class>     two GPUs joined by each distinct link class, peer on and off (cuda)
//   unpinned         host-staged on every GPU with the host threads left unpinned (cuda)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/bench/bench.hpp"
#include "src/runtime/topology.hpp"
#include "src/survey/link_matrices.hpp"
#include "src/survey/what_if.hpp"

namespace yeex {

struct SurveyConfig {
  std::string engine = "host";
  int precision_bits = 32;
  std::vector<int> devices;  // cuda: the GPUs, in chain order; host: empty
  int slabs = 4;             // host engine: the most slabs a row splits into
  double budget_seconds = 900;
  std::vector<std::string> exchanges;  // the threads-mode backends of this build
  Topology topology;
  bool pin = true;                // host threads pinned near their GPU (cuda)
  std::vector<Index> sizes;       // small, medium, large cube edges
  Index steps = 50, warmup = 10;  // steps per timed repeat, untimed steps first
  int repeats = 3;
};

// The default sizes of an engine: cuda 128, 256, 512; CPU engines 16, 24, 32.
std::vector<Index> survey_sizes(const std::string& engine);

struct SurveyPhase {
  std::string name;        // "scaling-128", "peer-off", "link-NV18", "unpinned"
  std::string kind;        // "scaling", "peer-off", "link-class", "unpinned"
  std::string link_class;  // link-class phases: the link type between the two GPUs
  bool pinned = true;
  BenchConfig bench;
  double estimated_seconds = 0;  // before it ran
  double seconds = 0;            // what it took
  std::string skipped;           // why it did not run
  std::vector<BenchRow> rows;
};

// The phases of a survey, unmeasured, in the order they run.
std::vector<SurveyPhase> plan_survey(const SurveyConfig& config);

// Seconds a phase is expected to take at `seconds_per_cell_step` (per device) plus `setup` per row.
double estimate_phase_seconds(const SurveyPhase& phase, double seconds_per_cell_step, double setup_seconds);

// Runs the phases that fit the budget left (`spent` seconds already gone), calling `progress`
// after each row with the phase, the row, the rows done and the rows planned.
using SurveyProgress = std::function<void(const SurveyPhase&, const BenchRow&, int done, int planned)>;
void run_survey(const SurveyConfig& config, std::vector<SurveyPhase>& phases, double spent,
                const SurveyProgress& progress);

nlohmann::json to_json(const BenchRow& row);
nlohmann::json to_json(const SurveyPhase& phase);

// The comparison of each measured exchange time with the wire time predicted from the machine's
// own links: the P2P sweep (exchange_model.hpp) and the what-if model on its matrices.
nlohmann::json model_check(const SurveyConfig& config, const std::vector<SurveyPhase>& phases,
                           const std::optional<P2PSweep>& sweep, const std::optional<LinkMatrices>& links);

// The 1-device times of the scaling phases, the compute the what-if model scales.
std::vector<ComputeBaseline> compute_baselines(const std::vector<SurveyPhase>& phases);

}  // namespace yeex
