// The run plan (src/plan/run_plan.hpp): slabs and their z ranges, the backend and why, the
// refusals and their messages; the memory estimate's growth; the memory limits' parsers on
// fixture text.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "src/plan/memory_limits.hpp"
#include "src/plan/run_plan.hpp"
#include "src/solver/memory_estimate.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;

Deck deck_with_nz(Index nz) {
  Deck d = default_deck();
  d.grid.nz = nz;
  d.snapshots.clear();
  return d;
}

PlanRequest host_slabs(int slabs, const std::string& exchange = "", Index halo_depth = 1) {
  PlanRequest r;
  r.split.engine = "host";
  r.split.subdomains = slabs;
  r.split.exchange = exchange;
  r.split.halo_depth = halo_depth;
  return r;
}

// The message make_run_plan refuses `request` with ("" if it plans it).
std::string refusal(const Deck& deck, const PlanRequest& request) {
  try {
    make_run_plan(deck, request);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RunPlan, SlabsCoverTheZPlanesInOrder) {
  for (const Index nz : {1, 7, 16, 64, 65}) {
    for (const int n : {1, 2, 3, 4, 7}) {
      if (n > nz) continue;
      const RunPlan plan = make_run_plan(deck_with_nz(nz), host_slabs(n));
      ASSERT_EQ(plan.slabs.size(), std::size_t(n)) << "nz " << nz << ", " << n << " slabs";
      Index next = 0;
      for (int s = 0; s < n; ++s) {
        const PlannedSlab& slab = plan.slabs[s];
        EXPECT_EQ(slab.k_begin, next);
        // nz / N planes a slab, one more for the first nz % N.
        EXPECT_EQ(slab.k_end - slab.k_begin, nz / n + (s < nz % n ? 1 : 0)) << "nz " << nz << ", slab " << s;
        EXPECT_EQ(slab.stored_planes, slab.k_end - slab.k_begin + (s == n - 1 ? 1 : 0));  // the inert plane nz
        EXPECT_EQ(slab.device, -1);
        EXPECT_EQ(slab.rank, 0);
        next = slab.k_end;
      }
      EXPECT_EQ(next, nz);
    }
  }
}

TEST(RunPlan, CarriesTheDeckAndFillsTheSolverConfig) {
  Deck deck = deck_with_nz(32);
  deck.steps = 123;
  deck.duration.reset();
  deck.output_dir = "somewhere";
  PlanRequest request = host_slabs(2);
  request.precision_bits = 64;
  request.check_every = 7;
  request.output_files = {"run.json", "probes.h5"};
  const RunPlan plan = make_run_plan(deck, request);
  EXPECT_EQ(plan.mode, "threads");
  EXPECT_EQ(plan.steps, 123);
  EXPECT_EQ(plan.cells, deck.grid.cells());
  EXPECT_DOUBLE_EQ(plan.dt, deck.dt());
  EXPECT_EQ(plan.output_files, request.output_files);
  EXPECT_EQ(plan.config.precision_bits, 64);
  EXPECT_EQ(plan.config.check_every, 7);
  EXPECT_EQ(plan.config.output_dir, std::filesystem::path("somewhere"));
  // The backend is chosen here, once: the solver takes it as planned.
  EXPECT_EQ(plan.config.planned_exchange, plan.exchange.name);
}

TEST(RunPlan, SaysWhichBackendAndWhy) {
  const Deck deck = deck_with_nz(32);
  const RunPlan host = make_run_plan(deck, host_slabs(2));
  EXPECT_EQ(host.exchange.name, "host-staged");
  EXPECT_FALSE(host.exchange.named);
  EXPECT_THAT(host.exchange.why, HasSubstr("the default, as overlap cannot run here: "));
  const RunPlan named = make_run_plan(deck, host_slabs(2, "host-staged"));
  EXPECT_TRUE(named.exchange.named);
  EXPECT_EQ(named.exchange.why, "named with --exchange");
  const RunPlan deep = make_run_plan(deck, host_slabs(2, "", 2));
  EXPECT_EQ(deep.exchange.name, "b2r");
  EXPECT_EQ(deep.exchange.why, "the default with --halo-depth above 1");
}

TEST(RunPlan, RefusesWithTheMessagesOfTheChecks) {
  const Deck deck = deck_with_nz(12);
  EXPECT_EQ(refusal(deck, host_slabs(13)),
            "--subdomains 13 with grid.cells " + std::to_string(deck.grid.nx) + " x " + std::to_string(deck.grid.ny) +
                " x 12: a grid of 12 cells along z cannot be split into 13 slabs: every slab needs at least one cell "
                "plane");
  EXPECT_THAT(refusal(deck, host_slabs(4, "b2r", 4)), HasSubstr("halo depth R=4 is larger than the thinnest slab (3"));
  EXPECT_THAT(refusal(deck, host_slabs(2, "p2p")), HasSubstr("--exchange p2p: "));
  EXPECT_THAT(refusal(deck, host_slabs(2, "b2r")), HasSubstr("--exchange b2r: "));
  EXPECT_EQ(refusal(deck, host_slabs(2)), "");
}

MemoryLimits roomy() {
  MemoryLimits l;
  l.available = std::size_t(1) << 50;
  return l;
}

TEST(RunPlan, RefusesWhatDoesNotFitNamingTheLimitAndBothNumbers) {
  const RunPlan plan = make_run_plan(deck_with_nz(64), host_slabs(2));
  const std::size_t need = plan.memory.host_total();
  ASSERT_GT(need, std::size_t(1) << 20);
  EXPECT_FALSE(memory_refusal(plan, roomy()));

  MemoryLimits available = roomy();
  available.available = need / 2;
  EXPECT_EQ(memory_refusal(plan, available).value_or(""), "the model needs about " + gib(need) +
                                                              " on the host engine but only " + gib(need / 2) +
                                                              " is available (grid.cells 64 x 64 x 64)");

  MemoryLimits cgroup = roomy();
  cgroup.cgroup = need / 2;
  cgroup.cgroup_file = "/sys/fs/cgroup/job/memory.max";
  const std::string by_cgroup = memory_refusal(plan, cgroup).value_or("");
  EXPECT_THAT(by_cgroup, HasSubstr("the cgroup memory limit is " + gib(need / 2)));
  EXPECT_THAT(by_cgroup, HasSubstr("/sys/fs/cgroup/job/memory.max"));
  EXPECT_THAT(by_cgroup, HasSubstr("needs about " + gib(need)));

  MemoryLimits address = roomy();
  address.address_space = need / 2;
  const std::string by_rlimit = memory_refusal(plan, address).value_or("");
  EXPECT_THAT(by_rlimit, HasSubstr("RLIMIT_AS"));
  EXPECT_THAT(by_rlimit, HasSubstr(gib(need / 2)));
  EXPECT_THAT(by_rlimit, HasSubstr("needs about " + gib(need)));
}

Deck deck_with_probes(std::size_t probes, Index steps) {
  Deck d = deck_with_nz(32);
  d.steps = steps;
  d.duration.reset();
  d.probes.clear();
  for (std::size_t p = 0; p < probes; ++p)
    d.probes.push_back({"p" + std::to_string(p),
                        {d.cell_size[0] * double(p % d.grid.nx), d.cell_size[1] * double(p / d.grid.nx % d.grid.ny),
                         d.cell_size[2] * double(p % d.grid.nz)},
                        {Component::Ez, Component::Hy}});
  return d;
}

TEST(MemoryEstimate, ProbesCostLinearlyInTheirNumberAndSteps) {
  RunConfig config;
  config.subdomains = 2;
  const auto estimate = [&](std::size_t probes, Index steps) {
    const Deck d = deck_with_probes(probes, steps);
    return estimate_run_memory(d, config, SlabDecomposition(d.grid, 2, 1));
  };
  const auto t0 = std::chrono::steady_clock::now();
  const MemoryEstimate none = estimate(0, 100), some = estimate(5000, 100), more = estimate(10000, 100);
  EXPECT_EQ(more.host_probes - some.host_probes, some.host_probes - none.host_probes);
  EXPECT_EQ(more.host_engines - some.host_engines, some.host_engines - none.host_engines);
  const ProbeStorage each = probe_storage_bytes(2, 100, config.probe_slots, 4, false);
  EXPECT_EQ(more.host_probes, 10000 * (each.host_drain + each.host_series));
  EXPECT_EQ(more.host_probes - none.host_probes, 10000 * (each.host_drain + each.host_series));
  // The series: 2 components x steps x 8 bytes a probe.
  EXPECT_EQ(each.host_series, 2u * 100u * sizeof(double));
  // Steps cost bytes, not time: a billion steps are counted, not walked.
  const MemoryEstimate long_run = estimate(10000, 1000000000);
  EXPECT_EQ(long_run.host_probes - more.host_probes, std::size_t(10000) * 2 * (1000000000 - 100) * sizeof(double));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
  // Written to probes.h5 as the run goes, the series cost one bounded chunk whatever the steps.
  config.output_dir = "out";
  const MemoryEstimate to_file = estimate(10000, 1000000000);
  const ProbeStorage drains = probe_storage_bytes(20000, 1000000000, config.probe_slots, 4, true);
  EXPECT_EQ(to_file.host_probes, drains.host_drain + drains.host_series);
  EXPECT_LE(drains.host_series, (std::size_t(64) << 20) + 20000 * (std::size_t(20) << 10));
  EXPECT_EQ(estimate(10000, 100000).host_probes, to_file.host_probes);
}

TEST(MemoryEstimate, SourcesCostEveryStepOnTheHostAndInTheirSlab) {
  RunConfig config;
  config.subdomains = 2;
  Deck d = deck_with_probes(0, 1000);
  const std::size_t sources = d.sources.size();
  ASSERT_GT(sources, 0u);
  const MemoryEstimate m = estimate_run_memory(d, config, SlabDecomposition(d.grid, 2, 1));
  EXPECT_EQ(m.host_sources, sources * 1000 * sizeof(double));
  d.steps = 2000;
  const MemoryEstimate twice = estimate_run_memory(d, config, SlabDecomposition(d.grid, 2, 1));
  EXPECT_EQ(twice.host_sources, 2 * m.host_sources);
  // The engines keep their own samples (Real, every step) too.
  EXPECT_EQ(twice.host_engines - m.host_engines, sources * 1000 * sizeof(float));
  EXPECT_EQ(m.device_total(), 0u);  // a CPU engine has no device memory
}

TEST(MemoryEstimate, CountsTheCudaEnginesDevicesApart) {
  RunConfig config;
  config.engine = "cuda";
  config.devices = {0, 0, 1};  // three slabs, two on GPU 0
  const Deck d = deck_with_probes(10, 100);
  const MemoryEstimate m = estimate_run_memory(d, config, SlabDecomposition(d.grid, 3, 1));
  EXPECT_GT(m.device_fields, 0u);
  EXPECT_EQ(m.host_engines, 0u);
  EXPECT_EQ(m.device_reserve, 2u << 20);  // GPU 0, two slabs
  config.devices = {0, 1, 2};
  const MemoryEstimate spread = estimate_run_memory(d, config, SlabDecomposition(d.grid, 3, 1));
  EXPECT_LT(spread.device_total(), m.device_total());
  EXPECT_EQ(spread.host_setup, m.host_setup);
}

TEST(MemoryLimits, FindsTheCgroupOfTheProcess) {
  EXPECT_EQ(cgroup_v2_path("0::/user.slice/user-1000.slice/session-2.scope\n").value_or("-"),
            "/user.slice/user-1000.slice/session-2.scope");
  const std::string hybrid =
      "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/a829\n3:cpuset:/\n2:cpu,cpuacct:/\n0::/\n";
  EXPECT_EQ(cgroup_v2_path(hybrid).value_or("-"), "/");
  EXPECT_EQ(cgroup_v1_memory_path(hybrid).value_or("-"), "/process_api/a829");
  EXPECT_EQ(cgroup_v1_memory_path("5:cpu,memory:/slurm/job_7\n").value_or("-"), "/slurm/job_7");
  EXPECT_FALSE(cgroup_v1_memory_path("0::/only-v2\n"));
  EXPECT_FALSE(cgroup_v2_path("4:memory:/only-v1\n"));
  EXPECT_FALSE(cgroup_v2_path(""));
}

TEST(MemoryLimits, ParsesTheLimitFiles) {
  EXPECT_FALSE(parse_cgroup_memory_max("max\n"));
  EXPECT_EQ(parse_cgroup_memory_max("1073741824\n").value_or(0), std::size_t(1) << 30);
  EXPECT_FALSE(parse_cgroup_memory_max("lots\n"));
  EXPECT_FALSE(parse_cgroup_memory_max(""));
  EXPECT_FALSE(parse_cgroup_v1_limit("9223372036854771712\n"));
  EXPECT_EQ(parse_cgroup_v1_limit("4294967296\n").value_or(0), std::size_t(4) << 30);
  EXPECT_EQ(parse_mem_available("MemTotal:       32000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n").value_or(0),
            2048u * 1024u);
  EXPECT_FALSE(parse_mem_available("MemTotal: 1 kB\n"));
}

class CgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    root_ = std::filesystem::temp_directory_path() / ("yeex-cgroup-" + std::to_string(rd()) + std::to_string(rd()));
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void write(const std::filesystem::path& relative, const std::string& text) {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << text;
  }
  std::filesystem::path root_;
};

TEST_F(CgroupTree, TakesTheSmallestLimitOnThePathUpToTheRoot) {
  write("job/step/memory.max", "max\n");
  write("job/memory.max", "2147483648\n");
  const auto limit = cgroup_memory_limit("0::/job/step\n", root_);
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->first, std::size_t(2) << 30);
  EXPECT_EQ(std::filesystem::path(limit->second), (root_ / "job/memory.max").lexically_normal());
  write("job/step/memory.max", "1073741824\n");
  EXPECT_EQ(cgroup_memory_limit("0::/job/step\n", root_)->first, std::size_t(1) << 30);
  EXPECT_FALSE(cgroup_memory_limit("0::/elsewhere\n", root_));
}

TEST_F(CgroupTree, ReadsVersion1WhenVersion2SetsNone) {
  write("memory/memory.limit_in_bytes", "9223372036854771712\n");
  write("memory/batch/memory.limit_in_bytes", "3221225472\n");
  const auto limit = cgroup_memory_limit("4:memory:/batch\n0::/\n", root_);
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->first, std::size_t(3) << 30);
  EXPECT_THAT(limit->second, HasSubstr("memory.limit_in_bytes"));
}

TEST(PlanOutput, TextAndJsonSayTheSameThings) {
  PlanRequest request = host_slabs(3);
  request.output_files = {"run.json", "probes.h5"};
  const RunPlan plan = make_run_plan(deck_with_nz(30), request);
  const std::string text = plan_text(plan, roomy());
  EXPECT_THAT(text, HasSubstr("slab 2"));
  EXPECT_THAT(text, HasSubstr("z planes [20, 30)  10 planes + the inert plane nz"));
  EXPECT_THAT(text, HasSubstr("exchange  host-staged: the default"));
  EXPECT_THAT(text, HasSubstr("run.json, probes.h5"));
  const nlohmann::json j = plan_json(plan, roomy());
  EXPECT_EQ(j["slabs"].size(), 3u);
  EXPECT_EQ(j["slabs"][2]["z_planes"], nlohmann::json({20, 30}));
  EXPECT_EQ(j["exchange"]["name"], "host-staged");
  EXPECT_EQ(j["memory_bytes"]["host"]["total"], plan.memory.host_total());
}

}  // namespace
}  // namespace yeex
