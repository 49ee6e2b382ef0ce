#include "src/survey/what_if.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <nlohmann/json.hpp>

#include "src/bench/bench.hpp"
#include "src/runtime/placement.hpp"

namespace yeex {

bool exchange_overlaps(const std::string& e) { return e == "overlap" || e == "graph" || e == "coop" || e == "nccl"; }
bool exchange_predictable(const std::string& e) {
  return exchange_overlaps(e) || e == "host-staged" || e == "p2p" || e == "b2r";
}

P2PSweep sweep_from_links(const LinkMatrices& links, bool peer) {
  const Matrix& bandwidth = peer ? links.peer_bandwidth : links.staged_bandwidth;
  const Matrix& latency = peer ? links.peer_latency : links.staged_latency;
  P2PSweep sweep{links.source, {}};
  const std::size_t n = bandwidth.rows.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double gbps = pair_value(bandwidth, i, j, true);
      if (!(gbps > 0)) continue;
      double us = pair_value(latency, i, j, false);
      if (std::isnan(us)) us = 0;
      MessageCurve curve{static_cast<int>(j), static_cast<int>(i), {}};
      // Powers of 2 from 4 B to 1 GiB: log-log interpolation between them stays within a few
      // per cent of L + b / B.
      for (double b = 4; b <= double(1 << 30); b *= 2) curve.points.push_back({b, us * 1e-6 + b / (gbps * 1e9)});
      sweep.curves.push_back(curve);
    }
  return sweep;
}

std::vector<int> best_gpus(const LinkMatrices& links, int count) {
  const int n = static_cast<int>(links.gpus.size());
  if (count > n || count < 1) return {};
  std::vector<std::vector<double>> scores(n, std::vector<double>(n, 0.0));
  const Matrix& m = links.peer_bandwidth.rows.empty() ? links.staged_bandwidth : links.peer_bandwidth;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double v = i == j ? 0 : pair_value(m, i, j, true);
      scores[i][j] = std::isnan(v) ? 0 : v;
    }
  if (count == n) return best_chain(scores);
  // A subset: the best first `count` of every order (exhaustive where best_chain is), else the
  // first `count` of the whole chain.
  if (n > kExhaustiveChainGpus) {
    std::vector<int> chain = best_chain(scores);
    chain.resize(count);
    return chain;
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> best(order.begin(), order.begin() + count);
  const auto key = [&](const std::vector<int>& c) {
    double sum = 0;
    for (std::size_t k = 1; k < c.size(); ++k) sum += scores[c[k - 1]][c[k]];
    return std::make_pair(slowest_link(scores, c), sum);
  };
  auto best_key = key(best);
  do {
    const std::vector<int> prefix(order.begin(), order.begin() + count);
    if (const auto k = key(prefix); k > best_key) {
      best = prefix;
      best_key = k;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

Prediction predict_row(const LinkMatrices& links, const ComputeBaseline& base, const std::string& scaling,
                       const std::string& exchange, const std::vector<int>& positions, Index halo_depth,
                       int precision_bits) {
  Prediction p;
  p.scaling = scaling;
  p.size = base.size;
  p.exchange = exchange;
  p.count = static_cast<int>(positions.size());
  p.grid = scaling == "weak" ? weak_grid(base.grid, p.count) : base.grid;
  for (int i : positions) p.gpus.push_back(i >= 0 && i < int(links.gpus.size()) ? links.gpus[i] : "?");
  const bool peer = exchange != "host-staged";
  if (!exchange_predictable(exchange)) {
    p.skipped = "the model has no rule for " + exchange;
    return p;
  }
  if ((peer ? links.peer_bandwidth : links.staged_bandwidth).rows.empty()) {
    p.skipped = peer ? "no peer-on bandwidth matrix" : "no peer-off bandwidth matrix (host-staged copies)";
    return p;
  }
  if (p.count < 2) {
    p.skipped = "one GPU: no exchange";
    return p;
  }
  const Index depth = exchange == "b2r" ? std::max<Index>(halo_depth, 2) : 1;
  if (p.grid.nz / p.count < 2 * depth) {
    p.skipped = "slabs thinner than the halo";
    return p;
  }
  p.exchange_seconds = predicted_exchange_seconds(sweep_from_links(links, peer), p.grid, positions, depth,
                                                  std::size_t(precision_bits / 8));
  if (std::isnan(p.exchange_seconds)) {
    p.skipped = "a pair of these GPUs has no bandwidth in the matrix";
    return p;
  }
  const double compute = scaling == "weak" ? base.seconds_per_step : base.seconds_per_step / p.count;
  p.step_seconds = exchange_overlaps(exchange) ? std::max(compute, p.exchange_seconds) : compute + p.exchange_seconds;
  p.efficiency =
      scaling == "weak" ? base.seconds_per_step / p.step_seconds : base.seconds_per_step / (p.count * p.step_seconds);
  return p;
}

std::vector<Prediction> predict(const LinkMatrices& links, const std::vector<ComputeBaseline>& baselines,
                                const std::vector<std::string>& exchanges, int max_count, Index b2r_depth,
                                int precision_bits, bool strong, bool weak) {
  std::vector<Prediction> out;
  const int most = std::min<int>(max_count, static_cast<int>(links.gpus.size()));
  for (const ComputeBaseline& base : baselines)
    for (const char* scaling : {"strong", "weak"}) {
      if ((std::string(scaling) == "strong" && !strong) || (std::string(scaling) == "weak" && !weak)) continue;
      for (const std::string& e : exchanges)
        for (int n = 2; n <= most; ++n)
          out.push_back(predict_row(links, base, scaling, e, best_gpus(links, n), b2r_depth, precision_bits));
    }
  return out;
}

std::string what_if_model() {
  return "exchange per step E = max over subdomains of the sum, over the halo messages it receives per step, of "
         "t(b) = L + b / B (B, L: the pair's unidirectional bandwidth and small-copy latency, the slower direction; "
         "peer-off matrices for host-staged); compute C = T1 / N (strong) or T1 (weak), T1 the 1-device time this "
         "survey measured; step T = C + E for host-staged, p2p and b2r, max(C, E) for overlap, graph, coop and nccl; "
         "strong efficiency T1 / (N T), weak T1 / T";
}

std::vector<std::string> what_if_assumptions() {
  return {"the target's GPUs compute as fast as the GPUs (or CPU slabs) this survey measured",
          "copies into different slabs do not share a link (true through NVSwitch, optimistic on a PCIe switch)",
          "a subdomain's messages go one after another; both directions of a pair at once are as fast as one",
          "no barrier, launch or host-synchronisation cost: the prediction is a bound, approached, not reached",
          "overlapping backends hide the whole exchange behind the bulk sweep (their border sweeps are in T1)",
          "b2r's recomputed border planes cost nothing; its deeper messages are counted",
          "an N-GPU row uses the N GPUs whose chain has the fastest slowest link"};
}

nlohmann::json to_json(const Prediction& p) {
  const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
  const bool ok = p.skipped.empty();
  return {{"scaling", p.scaling},
          {"size", p.size},
          {"grid", {p.grid.nx, p.grid.ny, p.grid.nz}},
          {"exchange", p.exchange},
          {"devices", p.count},
          {"gpus", p.gpus},
          {"exchange_seconds_per_step", ok ? number(p.exchange_seconds) : nlohmann::json()},
          {"seconds_per_step", ok ? number(p.step_seconds) : nlohmann::json()},
          {"efficiency", ok ? number(p.efficiency) : nlohmann::json()},
          {"skipped", p.skipped}};
}

}  // namespace yeex
