// What a machine's links would make of yeex's exchange backends: the exchange time per step and
// the parallel efficiency predicted from a bandwidth and a latency matrix (link_matrices.hpp),
// for the grids a survey measured, on a machine you may not have.
//
// THE MODEL (also what_if_model(), printed in the report).
//  1. A halo message of b bytes between GPUs i and j takes t(b) = L + b / B, with B the pair's
//     unidirectional bandwidth and L its small-copy latency, the slower direction of the two
//     (peer-on matrices; host-staged uses the peer-off ones, and is not predicted without them).
//  2. The messages per step are the halo plan's (src/bench/exchange_model.hpp: 4 messages of one
//     padded plane into an interior slab per step at halo depth 1; b2r at depth R: 12 deeper
//     messages every R steps), each subdomain's one after another, the subdomains in parallel:
//     exchange E = max over subdomains of the sum of t(b) (predicted_exchange_seconds on a sweep
//     made of t(b)).
//  3. Compute: the 1-device time T1 of the grid as measured by this survey, split evenly:
//     T1 / N per GPU in strong scaling, T1 in weak scaling (the target's GPUs taken to compute
//     as fast as this machine's).
//  4. Step time: synchronous backends (host-staged, p2p, b2r) add the exchange to the compute,
//     T = C + E; overlapping ones (overlap, graph, coop, nccl) hide it behind the bulk sweep,
//     T = max(C, E). Barriers, launches and host synchronisation are not counted: the
//     prediction is a bound a backend approaches, not what it reaches.
//  5. Strong efficiency T1 / (N T), weak T1 / T. The GPUs of an N-GPU row are the N whose chain
//     has the fastest slowest link (src/runtime/placement.hpp), as `run` would place them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "decomposition/grid.hpp"
#include "src/bench/exchange_model.hpp"
#include "src/survey/link_matrices.hpp"

namespace yeex {

// A measured 1-device time: the compute the model scales.
struct ComputeBaseline {
  Index size = 0;  // cube edge
  GridShape grid;
  double seconds_per_step = 0;
};

struct Prediction {
  std::string scaling;  // "strong" or "weak"
  Index size = 0;
  GridShape grid;  // global grid of the row
  std::string exchange;
  int count = 0;
  std::vector<std::string> gpus;  // labels of the matrices, in chain order
  double exchange_seconds = 0, step_seconds = 0, efficiency = 0;
  std::string skipped;  // why it cannot be predicted (no peer-off matrix, fewer GPUs)
};

// The backends the model knows, and whether each overlaps its exchange with the bulk sweep.
bool exchange_overlaps(const std::string& exchange);
bool exchange_predictable(const std::string& exchange);

// t(b) = L + b / B of each ordered pair, as a sweep indexed by the matrices' GPU positions.
P2PSweep sweep_from_links(const LinkMatrices& links, bool peer);

// The best chain of `count` GPUs of the matrices (positions), by peer bandwidth.
std::vector<int> best_gpus(const LinkMatrices& links, int count);

// One row on the GPUs at `positions` (indices into links.gpus).
Prediction predict_row(const LinkMatrices& links, const ComputeBaseline& base, const std::string& scaling,
                       const std::string& exchange, const std::vector<int>& positions, Index halo_depth,
                       int precision_bits);

// Every backend, count 2..min(max_count, GPUs of the matrices), scaling and baseline.
std::vector<Prediction> predict(const LinkMatrices& links, const std::vector<ComputeBaseline>& baselines,
                                const std::vector<std::string>& exchanges, int max_count, Index b2r_depth,
                                int precision_bits, bool strong, bool weak);

std::string what_if_model();
std::vector<std::string> what_if_assumptions();
nlohmann::json to_json(const Prediction& p);

}  // namespace yeex
