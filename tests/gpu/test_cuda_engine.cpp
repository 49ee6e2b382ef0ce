// The cuda engine on a real GPU: it matches the host engine (same deck, f32 to relative L2
// 1e-5, f64 to 1e-12), and its checksum is the same on every run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "kernels/cuda/cuda_engine.hpp"
#include "src/solver/field_stats.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/engine_fixture.hpp"
#include "tests/support/run_helpers.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

// A macro, not a function: GTEST_SKIP() leaves the function it is written in.
#define YEEX_REQUIRE_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible"

// The default problem, cut to `steps` steps.
Deck short_default(Index steps) {
  Deck d = default_deck();
  d.steps = steps;
  d.duration.reset();
  d.snapshots.clear();
  return d;
}

// The default problem with CPML on every face (8 cells) and a lossy half-space running into it.
Deck short_cpml(Index steps) {
  Deck d = short_default(steps);
  d.boundary.fill(BoundaryKind::cpml);
  d.cpml.cells = 8;
  d.materials.push_back({.name = "soil", .eps_r = 6.0, .sigma = 0.005});
  d.geometry.push_back(
      {.shape = ShapeKind::box, .material = "soil", .lower = {0, 0, 0}, .upper = {0.128, 0.128, 0.03}});
  return d;
}

template <typename Real>
double relative_l2_cuda_vs_host(Index steps, const Deck& deck) {
  testing::SteppedModel<Real> host(deck, "host"), cuda(deck, "cuda");
  for (Index n = 0; n < steps; ++n) {
    host.step(n);
    cuda.step(n);
  }
  double diff = 0, ref = 0;
  for (Component c : kAllComponents) {
    const auto a = extract<Real>(host.field(c), host.engine->layout(), host.range);
    const auto b = extract<Real>(cuda.field(c), cuda.engine->layout(), cuda.range);
    const double scale = is_electric(c) ? 1.0 : 376.73;  // compare H in the units of E
    for (std::size_t i = 0; i < a.size(); ++i) {
      diff += std::pow(scale * (double(a[i]) - double(b[i])), 2);
      ref += std::pow(scale * double(a[i]), 2);
    }
  }
  EXPECT_GT(ref, 0.0);
  return std::sqrt(diff / ref);
}

TEST(CudaEngine, MatchesHostEngineFloat32) {
  YEEX_REQUIRE_GPU();
  EXPECT_LE(relative_l2_cuda_vs_host<float>(200, short_default(200)), 1e-5);
}

// Two sources on one node: the host engine adds them in turn; a thread per source on the GPU
// would lose one of the two updates (number_rounds, kernels/engine.hpp).
TEST(CudaEngine, MatchesHostEngineWithTwoSourcesOnOneNode) {
  YEEX_REQUIRE_GPU();
  Deck d = short_default(200);
  Source second = d.sources.at(0);
  second.name = "tx2";
  second.frequency *= 0.75;
  second.amplitude = -0.6;
  d.sources.push_back(second);
  EXPECT_LE(relative_l2_cuda_vs_host<float>(200, d), 1e-5);
}

TEST(CudaEngine, MatchesHostEngineWithCpmlFloat32) {
  YEEX_REQUIRE_GPU();
  EXPECT_LE(relative_l2_cuda_vs_host<float>(300, short_cpml(300)), 1e-5);
}

TEST(CudaEngine, MatchesHostEngineWithCpmlFloat64) {
  YEEX_REQUIRE_GPU();
  EXPECT_LE(relative_l2_cuda_vs_host<double>(300, short_cpml(300)), 1e-12);
}

// The CPML shell boxes on the shell stream beside the plain box (cuda_engine.cu, sweep), which
// the small test decks never take by default: forced (CudaEngineOptions::shell_fork_nodes 0), with
// the z and y boxes cut into cores and strips (yee_strip_kernel) as forked shells are, the fields
// and probes keep the bits of the whole boxes swept in line; in float with whole rows in the plain
// kernel, in double beside the x boxes.
template <typename Real>
void expect_shell_stream_keeps_the_bits() {
  const Model model = build_model(short_cpml(120));
  RunConfig config;
  config.engine = "cuda";
  config.precision_bits = 8 * sizeof(Real);
  const RunResult in_line = run_model(model, config);
  config.cuda_engine.shell_fork_nodes = 0;
  testing::expect_same_bits(run_model(model, config), in_line);
}

TEST(CudaEngine, CpmlShellStreamKeepsTheBits) {
  YEEX_REQUIRE_GPU();
  expect_shell_stream_keeps_the_bits<float>();
  expect_shell_stream_keeps_the_bits<double>();
}

// The build holds code for this GPU (else the engine refuses with cuda_device_unsupported's
// message), and a run reports what the engine chose: dependent launches by compute capability,
// where the fields lie, node pairs (float without CPML) or one node a thread.
TEST(CudaEngine, ReportsItsChoices) {
  YEEX_REQUIRE_GPU();
  EXPECT_EQ(cuda_device_unsupported(0), "");
  EXPECT_THAT(cuda_build_architectures(), ::testing::MatchesRegex("(sm|compute)_[0-9]+.*"));
  const Model model = build_model(short_default(10));
  RunConfig config;
  config.engine = "cuda";
  // Dependent launches from compute capability 9.0 where the binary holds code for it; plain
  // launches on older GPUs, and where the device runs older code (a compute_80 PTX build).
  const std::string launches =
      "(dependent launches \\(compute capability (9|[1-9][0-9])\\.[0-9]\\)|plain launches "
      "\\(compute capability [0-8]\\.[0-9]: dependent launches need 9\\.0\\)|plain launches "
      "\\(compute capability [0-9]+\\.[0-9], but this binary's code for it is compiled for "
      "compute_[0-8][0-9]: dependent launches need code for 9\\.0\\))";
  const std::string fields = "; fields in an allocation each \\(below 128 MiB a field\\); ";
  EXPECT_THAT(run_model(model, config).engine_choices, ::testing::MatchesRegex(launches + fields + "node pairs"));
  config.precision_bits = 64;
  EXPECT_THAT(run_model(model, config).engine_choices,
              ::testing::MatchesRegex(launches + fields + "one node a thread"));
}

// Node pairs (yee_pair_sweep_kernel: the float sweeps of a run without CPML, two neighbouring nodes
// a thread) keep the one-node kernel's bits (CudaEngineOptions::node_pairs false): the default box on rows of 64
// nodes (whole warps), 66 and 130 (rows that end inside a warp), 2, and 47 (odd: one node a thread
// either way), on one slab and on three of one GPU, fields and probes.
TEST(CudaEngine, NodePairsKeepTheBits) {
  YEEX_REQUIRE_GPU();
  for (Index nx : {64, 66, 130, 2, 47}) {
    SCOPED_TRACE("nx = " + std::to_string(nx));
    Deck d = short_default(60);
    d.cell_size[0] = d.cell_size[0] * double(d.grid.nx) / double(nx);  // the same box
    d.grid.nx = nx;
    const Model model = build_model(d);
    for (int slabs : {1, 3}) {
      RunConfig config;
      config.engine = "cuda";
      config.devices.assign(slabs, 0);  // slabs sharing GPU 0
      config.exchange = "overlap";
      const RunResult pairs = run_model(model, config);
      config.cuda_engine.node_pairs = false;
      testing::expect_same_bits(run_model(model, config), pairs);
    }
  }
}

// Fields of kPlacementTrialBytes or more share a field arena (kernels/field_layout.hpp): the
// default box on 512 x 512 x 320 cells (383 MB a float field) keeps its bits whichever arena the
// placement trial keeps, in slots of 32 MiB and 1 GiB fixed (--arena-unit), on two slabs of GPU 0
// (arenas too, their trials taking turns) and on four, whose fields take an allocation each; in
// both precisions. The run's engine_choices say which unit each took and why.
TEST(CudaEngine, FieldArenaKeepsTheBits) {
  YEEX_REQUIRE_GPU();
  Deck d = short_default(24);
  const Index cells[3] = {512, 512, 320}, old[3] = {d.grid.nx, d.grid.ny, d.grid.nz};
  for (int a = 0; a < 3; ++a) d.cell_size[a] = d.cell_size[a] * double(old[a]) / double(cells[a]);  // the same box
  d.grid = {cells[0], cells[1], cells[2]};
  const Model model = build_model(d);
  for (int bits : {32, 64}) {
    SCOPED_TRACE("precision " + std::to_string(bits));
    RunConfig config;
    config.engine = "cuda";
    config.precision_bits = bits;
    const RunResult trial = run_model(model, config);
    EXPECT_THAT(trial.engine_choices,
                ::testing::MatchesRegex(".*; field arena in (2M|32M|1G) slots \\(timed: [0-9.]+ ms/step 2M, "
                                        "[0-9.]+ (32M|1G)(, [0-9.]+ (32M|1G))?\\); .*"));
    for (const std::size_t unit : {std::size_t(32) << 20, std::size_t(1) << 30}) {
      config.cuda_engine.arena_unit = unit;
      const RunResult fixed = run_model(model, config);
      testing::expect_same_bits(fixed, trial);
      EXPECT_THAT(fixed.engine_choices, ::testing::HasSubstr("; field arena in " + slot_unit_name(unit) +
                                                             " slots (fixed by --arena-unit); "));
    }
    config.cuda_engine.arena_unit = 0;
    config.exchange = "overlap";
    for (int slabs : {2, 4}) {
      config.devices.assign(slabs, 0);
      const RunResult split = run_model(model, config);
      testing::expect_same_bits(split, trial);
      // A quarter's fields in float stay below the arena's 128 MiB (in double they do not).
      if (slabs == 4 && bits == 32)
        EXPECT_THAT(split.engine_choices, ::testing::HasSubstr("fields in an allocation each"));
    }
  }
}

// The default box with `count` (up to 6) dipoles: the deck's own at its centre, a second on the
// same node (its rounds), then others on the planes next to where three slabs meet (z nodes 22 and
// 43 of 64, border planes of the overlap schedule's split), one of them along x.
Deck folded_sources_deck(Index steps, int count) {
  Deck d = short_default(steps);
  const Source tx = d.sources.at(0);
  const std::array<std::array<double, 3>, 5> at{{{0.064, 0.064, 0.064},
                                                 {0.050, 0.064, 0.044},
                                                 {0.080, 0.070, 0.086},
                                                 {0.030, 0.060, 0.042},
                                                 {0.064, 0.040, 0.088}}};
  for (int s = 1; s < count; ++s) {
    Source more = tx;
    more.name = "tx" + std::to_string(s + 1);
    more.position = {at[s - 1][0], at[s - 1][1], at[s - 1][2]};
    more.frequency *= 1.0 - 0.1 * s;
    more.amplitude = s % 2 ? -0.6 : 0.8;
    more.polarisation = s == 3 ? 0 : 2;
    d.sources.push_back(more);
  }
  return d;
}

// Sources folded into the E sweeps (Engine::fold_sources) keep the bits of sources added after
// them (CudaEngineOptions::fold_sources false): 3 sources (two on one node) and 6 (more than one launch folds,
// kFoldSources), in float (node pairs) and double, on one slab, on three slabs of GPU 0 under
// overlap (sources folded into border sweeps), and under graph on one (through the cursor, the
// steps replayed).
TEST(CudaEngine, FoldedSourcesKeepTheBits) {
  YEEX_REQUIRE_GPU();
  for (int count : {3, 6}) {
    const Model model = build_model(folded_sources_deck(60, count));
    for (int bits : {32, 64})
      for (const char* exchange : {"", "overlap", "graph"}) {
        SCOPED_TRACE(std::to_string(count) + " sources, f" + std::to_string(bits) + ", exchange '" + exchange + "'");
        RunConfig config;
        config.engine = "cuda";
        config.precision_bits = bits;
        config.exchange = exchange;
        if (*exchange) config.devices.assign(std::string(exchange) == "overlap" ? 3 : 1, 0);
        const RunResult folded = run_model(model, config);
        config.cuda_engine.fold_sources = false;
        testing::expect_same_bits(folded, run_model(model, config));
      }
  }
}

// The fold is the sweep's own: an engine armed by fold_sources whose inject_sources is never called
// ends where one that injects ends (and not where one without sources does), with the E sweep in
// one launch and cut in two along z, in both precisions.
template <typename Real>
void expect_the_sweep_adds_the_sources() {
  const Deck deck = folded_sources_deck(40, 3);
  Deck silent = deck;
  silent.sources.clear();
  testing::SteppedModel<Real> injected(deck, "cuda"), whole(deck, "cuda"), cut(deck, "cuda"), none(silent, "cuda");
  NodeRange lower = cut.update, upper = cut.update;
  lower.k1 = upper.k0 = cut.update.k0 + 27;  // between the sources' planes
  for (Index n = 0; n < deck.steps; ++n) {
    injected.step(n);
    none.step(n);
    for (auto* folded : {&whole, &cut}) {
      folded->engine->fold_sources(n);
      folded->engine->update_h(folded->update);
    }
    whole.engine->update_e(whole.update);
    cut.engine->update_e(lower);
    cut.engine->update_e(upper);
  }
  EXPECT_NE(none.field(Component::Ez), injected.field(Component::Ez));
  for (Component c : kAllComponents) {
    EXPECT_EQ(whole.field(c), injected.field(c)) << component_name(c);
    EXPECT_EQ(cut.field(c), injected.field(c)) << component_name(c);
  }
}

TEST(CudaEngine, FoldedSourcesAreAddedByTheSweep) {
  YEEX_REQUIRE_GPU();
  expect_the_sweep_adds_the_sources<float>();
  expect_the_sweep_adds_the_sources<double>();
}

TEST(CudaEngine, ScanFindsEveryNonFiniteValue) {
  YEEX_REQUIRE_GPU();
  testing::expect_finite_scan_finds_every_value<float>(short_default(3), "cuda");
  testing::expect_finite_scan_finds_every_value<double>(short_default(3), "cuda");
}

// The health check on the GPU (CudaEngine::fields_finite, one scan kernel over the arrays): a source far
// too strong blows the box up (tests/data/blow_up.toml: on the host engine after step 4),
// and with a check after every step the run stops naming the same step and node on one slab, on
// three of one GPU and on every visible GPU; a step earlier the fields are finite and the run ends.
TEST(CudaEngine, NamesTheStepOfABlowUp) {
  YEEX_REQUIRE_GPU();
  const Deck d = parse_deck_file(testing::test_data("blow_up.toml"));
  const Model model = build_model(d);
  const auto blow_up = [&](int slabs, int gpus, const Model& m) -> std::string {
    RunConfig config;
    config.engine = "cuda";
    for (int s = 0; s < slabs; ++s) config.devices.push_back(s * gpus / slabs);
    config.exchange = "p2p";
    config.check_every = 1;
    try {
      run_model(m, config);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  const std::string one = blow_up(1, 1, model);
  ASSERT_NE(one.find("the fields blew up: "), std::string::npos) << one;
  EXPECT_EQ(one.find("finite after step"), std::string::npos) << "a check after every step names the step: " << one;
  EXPECT_EQ(blow_up(3, 1, model), one);
  EXPECT_EQ(blow_up(cuda_device_count(), cuda_device_count(), model), one);
  const Index step = std::stoll(one.substr(one.rfind(' ') + 1));
  ASSERT_GT(step, 1) << one;
  Deck shorter = d;
  shorter.steps = step - 1;
  EXPECT_EQ(blow_up(1, 1, build_model(shorter)), "") << "finite after step " << step - 1;
}

TEST(CudaEngine, MatchesHostEngineFloat64) {
  YEEX_REQUIRE_GPU();
  EXPECT_LE(relative_l2_cuda_vs_host<double>(200, short_default(200)), 1e-12);
}

TEST(CudaEngine, ChecksumIsIdenticalAcrossRuns) {
  YEEX_REQUIRE_GPU();
  RunConfig config;
  config.engine = "cuda";
  const Model model = build_model(short_default(200));
  const RunResult first = run_model(model, config), second = run_model(model, config);
  EXPECT_EQ(first.checksum, second.checksum);
  EXPECT_EQ(first.probes.probes.size(), 2u);
  EXPECT_EQ(first.probes.probes[0].series[0], second.probes.probes[0].series[0]);
}

TEST(CudaEngine, ProbesMatchHostEngine) {
  YEEX_REQUIRE_GPU();
  const Model model = build_model(short_default(150));
  RunConfig host_config, cuda_config;
  cuda_config.engine = "cuda";
  const RunResult host = run_model(model, host_config), cuda = run_model(model, cuda_config);
  const auto& a = host.probes.probes[0].series[0];
  const auto& b = cuda.probes.probes[0].series[0];
  ASSERT_EQ(a.size(), b.size());
  double peak = 0, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::abs(a[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]));
  }
  EXPECT_LE(worst, 1e-5 * peak);
}

TEST(CudaEngine, DeviceCopyBandwidthIsMeasured) {
  YEEX_REQUIRE_GPU();
  EXPECT_GT(measure_device_copy_bandwidth(0, std::size_t(256) << 20), 100.0);
}

}  // namespace
}  // namespace yeex
