// yeex run --trace on the host engine (src/runtime/trace.hpp): a run of 3 slabs with host-staged
// notes, for every step of its window and no other, each slab's phases on its lanes in the order
// of the halo plan's step loop, with times that only grow; the Chrome trace JSON names every
// lane; tracing changes no bit of the fields; the window option is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/runtime/trace.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/contract_deck.hpp"

namespace yeex {
namespace {

RunResult run_host_staged(int slabs, Trace* trace) {
  RunConfig config;
  config.subdomains = slabs;
  config.exchange = "host-staged";
  config.probe_slots = 16;
  config.trace = trace;
  return run_model(build_model(testing::contract_deck()), config);
}

// The phases of one lane of one slab in one step, by begin time.
std::map<std::int64_t, std::vector<TracePhase>> by_step(const Trace& trace, int slab, TraceLane lane) {
  std::map<std::int64_t, std::vector<TracePhase>> steps;
  for (const TracePhase& p : trace.phases())
    if (p.slab == slab && p.lane == lane) steps[p.step].push_back(p);
  for (auto& [step, phases] : steps)
    std::stable_sort(phases.begin(), phases.end(),
                     [](const TracePhase& a, const TracePhase& b) { return a.begin_us < b.begin_us; });
  return steps;
}

std::vector<std::string> names(const std::vector<TracePhase>& phases) {
  std::vector<std::string> out;
  for (const TracePhase& p : phases) out.push_back(p.name);
  return out;
}

TEST(Trace, HostStagedOnThreeSlabsHasEveryPhaseOfTheWindowInTheStepLoopsOrder) {
  Trace trace(10, 4);
  const RunResult traced = run_host_staged(3, &trace);
  // The engine's queue: the exchange of E planes before H, H, of H planes before E, E, sources,
  // probes (the halo plan's step loop at R = 1, HaloExchange::plan_steps).
  const std::vector<std::string> queue = {"transfer before-h", "H", "transfer before-e", "E", "sources", "probes"};
  // The host thread: per exchange, the wait for its engine, the barrier inside the staged
  // transfer (every buffer filled), the barrier after it.
  const std::vector<std::string> host = {"sync", "barrier", "barrier", "sync", "barrier", "barrier"};
  for (int slab = 0; slab < 3; ++slab) {
    SCOPED_TRACE("slab " + std::to_string(slab));
    const auto bulk = by_step(trace, slab, TraceLane::bulk);
    const auto thread = by_step(trace, slab, TraceLane::host_thread);
    EXPECT_TRUE(by_step(trace, slab, TraceLane::border).empty()) << "the host engine issues on one queue";
    ASSERT_EQ(bulk.size(), 4u);
    ASSERT_EQ(thread.size(), 4u);
    double last_end = 0;
    for (std::int64_t n = 10; n < 14; ++n) {
      SCOPED_TRACE("step " + std::to_string(n));
      ASSERT_TRUE(bulk.count(n) && thread.count(n)) << "every step of the window, and only those";
      EXPECT_EQ(names(bulk.at(n)), queue);
      EXPECT_EQ(names(thread.at(n)), host);
      // One queue: each phase ends before the next begins, and time only grows.
      for (const TracePhase& p : bulk.at(n)) {
        EXPECT_EQ(p.device, -1);
        EXPECT_LE(p.begin_us, p.end_us);
        EXPECT_LE(last_end, p.begin_us);
        last_end = p.end_us;
      }
      // The host thread's waits follow one another, after the previous step's last phase and
      // before this step's last one.
      double host_end = n > 10 ? bulk.at(n - 1).back().end_us : 0;
      for (const TracePhase& p : thread.at(n)) {
        EXPECT_LE(host_end, p.begin_us);
        EXPECT_LE(p.begin_us, p.end_us);
        EXPECT_LE(p.end_us, bulk.at(n).back().begin_us);
        host_end = p.end_us;
      }
    }
  }
  EXPECT_EQ(trace.slabs(), 3);
  EXPECT_EQ(trace.size(), 3u * 4u * 12u);
  // The window's time against as many untraced steps right after it.
  EXPECT_EQ(traced.traced_steps, 4);
  EXPECT_EQ(traced.untraced_steps, 4);
  EXPECT_GT(traced.traced_seconds, 0);
  EXPECT_GT(traced.untraced_seconds, 0);
  // Tracing observes: the same bits as the run without it.
  EXPECT_EQ(traced.checksum, run_host_staged(3, nullptr).checksum);
}

TEST(Trace, ChromeJsonNamesTheProcessAndEveryLane) {
  Trace trace(0, 2);
  run_host_staged(2, &trace);
  trace.set_metadata("backend", "host-staged");
  const nlohmann::json j = trace.json();
  std::vector<std::string> threads, processes;
  std::size_t complete = 0;
  double earliest = 1e300;
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") threads.push_back(e.at("args").at("name"));
    if (e.at("ph") == "M" && e.at("name") == "process_name") processes.push_back(e.at("args").at("name"));
    if (e.at("ph") != "X") continue;
    ++complete;
    earliest = std::min(earliest, e.at("ts").get<double>());
    EXPECT_GE(e.at("dur").get<double>(), 0);
    EXPECT_EQ(e.at("cat").get<std::string>(), trace_kind(e.at("name").get<std::string>()));
    EXPECT_LT(e.at("args").at("step").get<int>(), 2);
  }
  EXPECT_EQ(processes, std::vector<std::string>{"host"});
  EXPECT_EQ(threads,
            (std::vector<std::string>{"slab 0 host thread", "slab 0 bulk", "slab 1 host thread", "slab 1 bulk"}));
  EXPECT_EQ(complete, trace.size());
  EXPECT_EQ(earliest, 0.0) << "times count from the window's first phase";
  EXPECT_EQ(j.at("otherData").at("backend"), "host-staged");
  EXPECT_EQ(j.at("otherData").at("steps").at("first"), 0);
  EXPECT_EQ(j.at("otherData").at("steps").at("count"), 2);
}

TEST(Trace, OneSlabHasNoExchangePhases) {
  Trace trace(3, 1);
  run_host_staged(1, &trace);
  EXPECT_EQ(names(by_step(trace, 0, TraceLane::bulk).at(3)), (std::vector<std::string>{"H", "E", "sources", "probes"}));
  EXPECT_TRUE(by_step(trace, 0, TraceLane::host_thread).empty());
}

TEST(TraceWindow, DefaultIsFourStepsAfterTenClampedToTheRun) {
  EXPECT_EQ(trace_window("", 100), (std::pair<std::int64_t, std::int64_t>{10, 4}));
  EXPECT_EQ(trace_window("", 12), (std::pair<std::int64_t, std::int64_t>{8, 4}));
  EXPECT_EQ(trace_window("", 3), (std::pair<std::int64_t, std::int64_t>{0, 3}));
  EXPECT_EQ(trace_window("0:1", 1), (std::pair<std::int64_t, std::int64_t>{0, 1}));
  EXPECT_EQ(trace_window("20:7", 27), (std::pair<std::int64_t, std::int64_t>{20, 7}));
}

TEST(TraceWindow, BadSpecsAreRefusedWithTheirReason) {
  const auto message = [](const std::string& spec, std::int64_t steps) {
    try {
      trace_window(spec, steps);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (const std::string spec : {"10", "a:4", "10:", ":4", "-1:4", "10:4x", "10:+4", "1:2:3"})
    EXPECT_NE(message(spec, 100).find("FIRST:COUNT"), std::string::npos) << spec;
  EXPECT_NE(message("10:0", 100).find("COUNT must be from 1 to 1000"), std::string::npos);
  EXPECT_NE(message("0:1001", 5000).find("COUNT must be from 1 to 1000"), std::string::npos);
  EXPECT_NE(message("98:4", 100).find("the run has 100 steps"), std::string::npos);
}

TEST(TraceSummary, NamesTheWindowPhasesSlabsAndOverhead) {
  Trace trace(10, 4);
  trace.add({{0, 0, TraceLane::bulk, "H", 10, 0, 1, 1}, {1, 1, TraceLane::border, "E lower border", 11, 1, 2, 1}});
  const std::string line = trace_summary(trace, 41e-6, 38e-6, "t.json");
  EXPECT_EQ(line,
            "trace: 4 steps (10-13), 2 phases, 2 slabs; traced steps 41 µs/step against 38 µs/step "
            "untraced (+8 %) -> t.json");
  EXPECT_NE(trace_summary(trace, 41e-6, 0, "t.json").find("no untraced steps"), std::string::npos);
}

}  // namespace
}  // namespace yeex
