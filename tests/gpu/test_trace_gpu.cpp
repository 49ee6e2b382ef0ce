// yeex run --trace on GPUs: for every backend on 2 GPUs (skipped with the reason where it cannot
// run), the traced repeat of time_model (what bench --trace records) has each slab's expected
// lanes and phases, times that lie inside the repeat, and a span per step within 10 % of the step
// time time_model measures with its own events, on the traced repeat and on the untraced ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_engine.hpp"
#include "src/bench/bench.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/trace.hpp"
#include "src/solver/solver.hpp"

namespace yeex {
namespace {

constexpr Index kWarmup = 20, kSteps = 10;
constexpr int kRepeats = 3;

struct Traced {
  StepTiming timing;
  std::vector<TracePhase> phases;
};

Traced trace_backend(const std::string& exchange, Index halo_depth, Index edge) {
  RunConfig config;
  config.engine = "cuda";
  config.devices = {0, 1};
  config.exchange = exchange;
  config.halo_depth = halo_depth;
  config.probe_slots = 256;
  Trace trace(0, 0);
  config.trace = &trace;
  const Model model = build_model(bench_deck({edge, edge, edge}, kWarmup + kSteps * (kRepeats + 1) + kSettlingSlack));
  Traced t{time_model(model, config, kWarmup, kSteps, kRepeats), trace.phases()};
  EXPECT_EQ(trace.count(), kSteps);
  return t;
}

std::set<std::string> names_on(const std::vector<TracePhase>& phases, int slab, TraceLane lane) {
  std::set<std::string> names;
  for (const TracePhase& p : phases)
    if (p.slab == slab && p.lane == lane) names.insert(p.name);
  return names;
}

bool has(const std::set<std::string>& names, const std::string& name) { return names.count(name) > 0; }

class TraceGpu : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceGpu, EveryPhaseOfTheTracedRepeatOnItsLanesAndTheStepTimeAddsUp) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs 2 GPUs, " << cuda_device_count() << " visible";
  const std::string exchange = GetParam();
  const Index depth = exchange == "b2r" ? 2 : 1;
  if (const std::string why = exchange_unavailable(exchange, {"cuda", {0, 1}, 2, depth, true, false}); !why.empty())
    GTEST_SKIP() << exchange << ": " << why;
  const Traced t = trace_backend(exchange, depth, 256);
  ASSERT_FALSE(t.phases.empty());
  std::set<std::int64_t> steps;
  for (const TracePhase& p : t.phases) {
    EXPECT_LE(p.begin_us, p.end_us) << p.name;
    EXPECT_TRUE(p.device == 0 || p.device == 1) << p.device;
    EXPECT_EQ(p.device, p.slab) << "one slab a GPU";
    for (std::int64_t n = p.step; n < p.step + p.steps; ++n) steps.insert(n);
  }
  const std::int64_t first = kWarmup + kRepeats * kSteps + t.timing.settling_steps;
  EXPECT_EQ(*steps.begin(), first);
  EXPECT_EQ(*steps.rbegin(), first + kSteps - 1);
  EXPECT_EQ(steps.size(), static_cast<std::size_t>(kSteps)) << "every step of the traced repeat, only those";

  for (int slab = 0; slab < 2; ++slab) {
    SCOPED_TRACE("slab " + std::to_string(slab));
    const auto bulk = names_on(t.phases, slab, TraceLane::bulk);
    const auto border = names_on(t.phases, slab, TraceLane::border);
    const auto host = names_on(t.phases, slab, TraceLane::host_thread);
    const char* inner = slab == 0 ? "upper border" : "lower border";  // the side a neighbour is on
    if (exchange == "coop") {
      EXPECT_EQ(bulk, std::set<std::string>{"kernel"}) << "the persistent kernel: one phase a launch";
      EXPECT_TRUE(border.empty());
    } else if (exchange == "p2p") {
      EXPECT_EQ(bulk, (std::set<std::string>{"H", "E", "sources", "probes", "transfer before-h", "transfer before-e"}));
      EXPECT_TRUE(border.empty());
      EXPECT_EQ(host, (std::set<std::string>{"sync", "barrier"}));
    } else {  // the border-first schedule
      EXPECT_TRUE(has(bulk, "sources") && has(bulk, "probes"));
      EXPECT_TRUE(has(host, "issue step"));
      if (has(bulk, "pushing sweeps H and E")) {  // graph's pushing sweeps
        EXPECT_EQ(exchange, "graph");
      } else {
        EXPECT_TRUE(has(bulk, "H bulk") && has(bulk, "E bulk"));
        EXPECT_TRUE(has(border, std::string("H ") + inner) && has(border, std::string("E ") + inner));
        EXPECT_FALSE(has(border, std::string("H ") + (slab == 0 ? "lower border" : "upper border")))
            << "no neighbour on the outer side: no border there";
        EXPECT_TRUE(has(border, "transfer before-h") || has(border, "transfer before-block"));
        EXPECT_TRUE(has(border, "await before-h") || has(border, "await before-block"));
      }
      if (exchange == "b2r") EXPECT_TRUE(has(bulk, "H") && has(bulk, "E")) << "substeps that do not exchange";
    }
    // The slab's GPU lanes from the first phase's begin to the last one's end, per step, against
    // time_model's events: of the traced repeat, and the median of the untraced ones.
    double begin = 1e300, end = -1e300;
    for (const TracePhase& p : t.phases)
      if (p.slab == slab && p.lane != TraceLane::host_thread)
        begin = std::min(begin, p.begin_us), end = std::max(end, p.end_us);
    const double span = (end - begin) * 1e-6 / kSteps;
    std::vector<double> untraced = t.timing.seconds_per_step;
    std::sort(untraced.begin(), untraced.end());
    const double median = untraced[untraced.size() / 2];
    EXPECT_NEAR(span, t.timing.traced_seconds_per_step, 0.1 * t.timing.traced_seconds_per_step);
    EXPECT_NEAR(span, median, 0.1 * median) << "the phases of a step add up to the step bench measures";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, TraceGpu,
                         ::testing::Values("host-staged", "p2p", "overlap", "nccl", "b2r", "graph", "coop"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace yeex
