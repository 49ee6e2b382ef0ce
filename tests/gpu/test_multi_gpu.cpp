// The bitwise contract on real GPUs: for the cuda engine, the final field checksum and the probe
// series are identical for every exchange backend x slab count (1..4) x halo depth, to the
// single-GPU run. The slabs spread over as many visible GPUs as there are slabs (spread_slabs):
// on 4 GPUs one slab each; on fewer, some GPUs hold several slabs, so every backend's multi-slab
// path runs on any machine with a GPU (nccl, which needs a GPU per slab, then skips). Backends
// that cannot run here are skipped with the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <map>
#include <tuple>

#include "decomposition/slab_decomposition.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/registry.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/run_helpers.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

// Ricker dipoles at x = 20 mm, y = 18 mm and each height z, polarisation cycling with z.
void add_sources(Deck& d, std::initializer_list<double> heights) {
  for (double z : heights) {
    Source s;
    s.position = {20e-3, 18e-3, z};
    s.polarisation = static_cast<int>(z * 1e3) % 3;
    s.waveform = WaveformKind::ricker;
    s.frequency = 30e9;
    d.sources.push_back(s);
  }
}

// Uneven slabs (nz = 45 over 2..4 GPUs), sources and probes near the slab boundaries, a lossy
// block and a PEC plate crossing them.
Deck contract_deck() {
  Deck d;
  d.grid = {40, 36, 45};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 120;
  d.materials.push_back({"lossy", 3.0, 0.05, 1.0, false});
  d.geometry.push_back({ShapeKind::box, "lossy", {5e-3, 5e-3, 8e-3}, {30e-3, 25e-3, 38e-3}});
  d.geometry.push_back({ShapeKind::box, "pec", {10e-3, 28e-3, 14e-3}, {20e-3, 29e-3, 33e-3}});
  add_sources(d, {11e-3, 12e-3, 22e-3, 23e-3, 34e-3});
  // A second source on the node of the one at 23 mm (Ez), the first plane of the upper slab on 2 and
  // of the third on 4 GPUs: the engines add the two one after the other (number_rounds,
  // kernels/engine.hpp). On 4 slabs the Ex source at 12 mm and the Ey one at 34 mm lie on the first
  // plane of the second and the fourth slab, whose Ex and Ey go down to the neighbour (coop's late
  // push).
  Source second = d.sources[3];
  second.frequency = 20e9;
  second.amplitude = -0.6;
  d.sources.push_back(second);
  d.probes.push_back({"a", {21e-3, 17e-3, 11e-3}, {Component::Ez, Component::Hx}});
  d.probes.push_back({"b", {25e-3, 20e-3, 23e-3}, {Component::Ex, Component::Hy}});
  d.probes.push_back({"c", {15e-3, 10e-3, 40e-3}, {Component::Ey, Component::Hz}});
  return d;
}

// The contract deck with CPML on every face: 15-cell slabs on nz = 44 put the z slabs at
// [0, 15) and [29, 44), so 3 GPUs (boundary at 30) and 4 GPUs (11 and 33) split them; the
// lossy block runs into the x, y and z slabs. Sources moved into the interior.
Deck cpml_contract_deck() {
  Deck d = contract_deck();
  d.grid.nz = 44;
  d.boundary.fill(BoundaryKind::cpml);
  d.cpml.cells = 15;
  d.sources.clear();
  add_sources(d, {16e-3, 17e-3, 22e-3, 23e-3, 27e-3});
  return d;
}

// The CPML deck with dispersive materials crossing every slab boundary and running into the CPML:
// the lossy block becomes a two-pole (Debye + Lorentz) material reaching up to x = 19 mm, beside
// the sources at x = 20 mm (a source in a dispersive material is refused), and a Drude sphere.
Deck dispersive_contract_deck() {
  Deck d = cpml_contract_deck();
  Material block{"block", 3.0, 0.02, 1.0, false};
  block.poles = {{.kind = PoleKind::debye, .delta_eps = 6.0, .tau = 9e-12},
                 {.kind = PoleKind::lorentz, .delta_eps = 1.5, .omega = 3e11, .gamma = 1e10}};
  Material metal{"metal", 1.0, 0.0, 1.0, false};
  metal.poles = {{.kind = PoleKind::drude, .omega = 6e11, .gamma = 2e10}};
  d.materials = {block, metal};
  d.geometry.front() = {ShapeKind::box, "block", {5e-3, 5e-3, 8e-3}, {19e-3, 25e-3, 38e-3}};
  GeometryObject sphere{ShapeKind::sphere, "metal"};
  sphere.centre = {22e-3, 10e-3, 30e-3}, sphere.radius = 3e-3;
  d.geometry.push_back(sphere);
  return d;
}

// The GPU of each of `slabs` slabs: spread over the first min(slabs, visible) GPUs.
std::vector<int> slab_devices(int slabs) {
  std::vector<int> gpus;
  for (int d = 0; d < std::min(slabs, cuda_device_count()); ++d) gpus.push_back(d);
  return spread_slabs(gpus, slabs);
}

// What a case fixes instead of the defaults: the engine's and the backends' options and test
// seams (RunConfig::cuda_engine, exchange_options).
struct Fixed {
  CudaEngineOptions engine;
  ExchangeOptions exchange;
};

RunResult run_on(int slabs, const std::string& exchange, Index depth, const Deck& deck = contract_deck(),
                 bool peer_access = true, const Fixed& fixed = {}) {
  RunConfig config;
  config.cuda_engine = fixed.engine;
  config.exchange_options = fixed.exchange;
  config.engine = "cuda";
  config.exchange = exchange;
  config.halo_depth = depth;
  config.peer_access = peer_access;
  config.probe_slots = 50;               // several returns to the host per run
  config.devices = slab_devices(slabs);  // RunConfig's default list is empty
  return run_model(build_model(deck), config);
}

const RunResult& reference() {
  static const RunResult r = run_on(1, "host-staged", 1);
  return r;
}

const RunResult& cpml_reference() {
  static const RunResult r = run_on(1, "host-staged", 1, cpml_contract_deck());
  return r;
}

using ContractCase = std::tuple<std::string, int, Index>;  // exchange, slabs, halo depth
class MultiGpuContract : public ::testing::TestWithParam<ContractCase> {};

// Why the case cannot run here, or "" when it can.
std::string unavailable_here(const ContractCase& param) {
  if (cuda_device_count() == 0) return "no CUDA device visible";
  const auto& [exchange, slabs, depth] = param;
  const std::string why = exchange_unavailable(exchange, {"cuda", slab_devices(slabs), slabs, depth});
  return why.empty() ? "" : exchange + ": " + why;
}

// Runs `deck` with the case's backend and slab count and compares it with the one-GPU reference
// bit for bit. A parametrised case that cannot run here is skipped with the reason; inside a test
// that loops over cases (`in_loop`), such a case is only reported, so that the test still
// counts as run for the cases that could.
void expect_matches_one_gpu(const ContractCase& param, const Deck& deck,
                            const std::function<const RunResult&()>& reference_run, bool in_loop = true,
                            const Fixed& fixed = {}) {
  if (const std::string why = unavailable_here(param); !why.empty()) {
    if (!in_loop) GTEST_SKIP() << why;
    std::printf("[ not run  ] %s\n", why.c_str());
    return;
  }
  const auto& [exchange, slabs, depth] = param;
  const RunResult r = run_on(slabs, exchange, depth, deck, true, fixed);
  const RunResult& one_gpu = reference_run();
  EXPECT_EQ(r.exchange, exchange);
  testing::expect_same_bits(r, one_gpu);
}

TEST_P(MultiGpuContract, MatchesOneGpuBitForBit) {
  expect_matches_one_gpu(GetParam(), contract_deck(), reference, false);
}

std::vector<ContractCase> cases() {
  std::vector<ContractCase> list;
  for (int slabs = 1; slabs <= 4; ++slabs) {
    for (const char* exchange : {"host-staged", "p2p", "overlap", "coop"}) list.emplace_back(exchange, slabs, 1);
    for (Index depth = 1; depth <= 4; ++depth) list.emplace_back("nccl", slabs, depth);
    for (Index depth = 1; depth <= 4; ++depth) list.emplace_back("graph", slabs, depth);
    for (Index depth = 2; depth <= 4; ++depth) list.emplace_back("b2r", slabs, depth);
    list.emplace_back("host-staged", slabs, 3);
  }
  return list;
}

std::string case_name(const ::testing::TestParamInfo<ContractCase>& info) {
  std::string name = std::get<0>(info.param);
  for (auto& ch : name)
    if (ch == '-') ch = '_';
  return name + "_" + std::to_string(std::get<1>(info.param)) + "slab_R" + std::to_string(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllBackends, MultiGpuContract, ::testing::ValuesIn(cases()), case_name);

// The same contract with CPML on every face (psi travels with the B+2R ghost planes).
class MultiGpuCpmlContract : public MultiGpuContract {};

TEST_P(MultiGpuCpmlContract, MatchesOneGpuBitForBit) {
  expect_matches_one_gpu(GetParam(), cpml_contract_deck(), cpml_reference, false);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, MultiGpuCpmlContract, ::testing::ValuesIn(cases()), case_name);

// The same with dispersive materials (their pole state travels with the B+2R ghost planes); coop
// refuses them (registry.hpp, kCoopNoDispersion).
const RunResult& dispersive_reference() {
  static const RunResult r = run_on(1, "host-staged", 1, dispersive_contract_deck());
  return r;
}

class MultiGpuDispersiveContract : public MultiGpuContract {};

TEST_P(MultiGpuDispersiveContract, MatchesOneGpuBitForBit) {
  expect_matches_one_gpu(GetParam(), dispersive_contract_deck(), dispersive_reference, false);
}

std::vector<ContractCase> dispersive_cases() {
  std::vector<ContractCase> list;
  for (const ContractCase& c : cases())
    if (std::get<0>(c) != "coop") list.push_back(c);
  return list;
}

INSTANTIATE_TEST_SUITE_P(AllBackends, MultiGpuDispersiveContract, ::testing::ValuesIn(dispersive_cases()), case_name);

// The poles change the fields, and the cuda engine's run stays close to the host engine's (the
// engines round alike but for the compilers' choices outside the explicit fused operations).
TEST(MultiGpu, DispersiveRunDependsOnThePolesAndMatchesTheHost) {
  if (cuda_device_count() < 1) GTEST_SKIP() << "no GPU";
  Deck plain = dispersive_contract_deck();
  for (Material& m : plain.materials) m.poles.clear();
  EXPECT_NE(run_on(1, "host-staged", 1, plain).checksum, dispersive_reference().checksum);
  const RunResult host = testing::run_on_slabs<float>(dispersive_contract_deck(), 1, "host-staged", 1);
  const RunResult& gpu = dispersive_reference();
  ASSERT_EQ(host.probes.probes.size(), gpu.probes.probes.size());
  for (std::size_t p = 0; p < host.probes.probes.size(); ++p)
    for (std::size_t c = 0; c < host.probes.probes[p].series.size(); ++c) {
      const auto& a = host.probes.probes[p].series[c];
      const auto& b = gpu.probes.probes[p].series[c];
      ASSERT_EQ(a.size(), b.size());
      double peak = 0, worst = 0;
      for (std::size_t t = 0; t < a.size(); ++t)
        peak = std::max(peak, std::abs(a[t])), worst = std::max(worst, std::abs(a[t] - b[t]));
      EXPECT_LE(worst, 1e-4 * peak) << host.probes.probes[p].name << " series " << c;
    }
}

TEST(MultiGpu, CoopRefusesDispersiveMaterials) {
  if (cuda_device_count() < 1) GTEST_SKIP() << "no GPU";
  EXPECT_THROW(run_on(1, "coop", 1, dispersive_contract_deck()), std::invalid_argument);
}

// --no-peer: host-staged and b2r take the staged transport (D2H into pinned buffers, H2D by the
// receiver, cross-GPU events without peer access), p2p the driver's copies through the host.
// Peer access is turned off first (an earlier test may have enabled it: it is per process), so
// that nothing can take the NVLink path unnoticed. Fields and psi still land bit for bit.
TEST(MultiGpu, WithoutPeerAccessMatchesOneGpu) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  const int most = std::min(4, cuda_device_count());
  for (int a = 0; a < most; ++a)
    for (int b = a + 1; b < most; ++b) set_peer_access(a, b, false);
  for (int slabs = 2; slabs <= 4; ++slabs)
    for (const auto& [exchange, depth] :
         {std::pair{"host-staged", 1}, std::pair{"host-staged", 3}, std::pair{"b2r", 2}, std::pair{"p2p", 1}}) {
      SCOPED_TRACE(std::string(exchange) + " on " + std::to_string(slabs) + " slabs, R = " + std::to_string(depth));
      testing::expect_same_bits(run_on(slabs, exchange, depth, contract_deck(), false), reference());
      testing::expect_same_bits(run_on(slabs, exchange, depth, cpml_contract_deck(), false), cpml_reference());
    }
}

// The peer transport's two ways of pushing (copy_transports.cu, PeerTransport), each on the backend that does
// not take it by default (ExchangeOptions::peer_push): overlap (R = 1) through the push kernel, b2r
// (R = 2, 3) through the copy engines. With CPML, b2r's pushes carry psi chunks too.
TEST(MultiGpu, EitherPeerPushMatchesOneGpu) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  for (int slabs = 2; slabs <= 4; ++slabs)
    for (const auto& [exchange, depth, push] :
         {std::tuple{"overlap", 1, "kernel"}, std::tuple{"b2r", 2, "copy"}, std::tuple{"b2r", 3, "copy"}}) {
      SCOPED_TRACE(std::string(exchange) + " pushing by " + push + " on " + std::to_string(slabs) +
                   " slabs, R = " + std::to_string(depth));
      Fixed by;
      by.exchange.peer_push =
          std::string(push) == "kernel" ? ExchangeOptions::PeerPush::kernel : ExchangeOptions::PeerPush::copy;
      expect_matches_one_gpu({exchange, slabs, depth}, contract_deck(), reference, true, by);
      expect_matches_one_gpu({exchange, slabs, depth}, cpml_contract_deck(), cpml_reference, true, by);
    }
}

// b2r takes graph's transport where each GPU holds one slab (b2r_exchange.cpp),
// else overlap's events: asked for (--b2r-transport events), or slabs sharing a GPU. The same
// bits either way, CPML's psi included, and the report says which it took.
TEST(MultiGpu, B2rEitherTransportMatchesOneGpu) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  const std::string counters = "counters on the GPUs, steps replayed as CUDA graphs";
  const std::string events = "events and host barriers, steps issued by the host (";
  for (int slabs = 2; slabs <= 4; ++slabs) {
    const bool shared = slabs > cuda_device_count();
    EXPECT_EQ(run_on(slabs, "b2r", 2).exchange_choices, shared ? events + "slabs sharing a GPU)" : counters);
    Fixed forced;
    forced.exchange.b2r_transport = ExchangeOptions::B2rTransport::events;
    for (Index depth : {2, 3}) {
      SCOPED_TRACE("b2r with events on " + std::to_string(slabs) + " slabs, R = " + std::to_string(depth));
      const RunResult r = run_on(slabs, "b2r", depth, contract_deck(), true, forced);
      EXPECT_EQ(r.exchange_choices, events + "--b2r-transport events)");
      testing::expect_same_bits(r, reference());
      expect_matches_one_gpu({"b2r", slabs, depth}, cpml_contract_deck(), cpml_reference, true, forced);
    }
  }
}

// graph records a block of steps once and replays it (border_first_exchange.hpp, Replay). The
// contract's runs (calls of 8, 50, 50 and 12 steps) replay one block of 32 steps in each call of
// 50 by default; blocks of one (rounded up to R steps: --graph-steps 1) replay nearly every
// step, recorded at the first block of the second call, sources, probes and CPML included; blocks
// of 7 leave steps over at the end of each call, issued directly around the replays.
TEST(MultiGpu, GraphReplaysAnyBlockBitForBit) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  for (Index block : {1, 7})
    for (int slabs = 1; slabs <= 4; ++slabs)
      for (Index depth : {1, 2, 3}) {
        SCOPED_TRACE("blocks of " + std::to_string(block) + " steps, " + std::to_string(slabs) +
                     " slabs, R = " + std::to_string(depth));
        Fixed steps;
        steps.exchange.graph_steps = block;
        expect_matches_one_gpu({"graph", slabs, depth}, contract_deck(), reference, true, steps);
        expect_matches_one_gpu({"graph", slabs, depth}, cpml_contract_deck(), cpml_reference, true, steps);
      }
}

// graph at halo depth 1 without CPML, one GPU a slab, planes of at most 192^2 nodes, sweeps each
// step as two pushing sweeps
// (graph_exchange.cu, set_up_pushing_sweeps): one kernel a sweep, whose first blocks wait for
// the neighbour, take the border plane and push it. The contract deck with its sources off the
// pushed nodes (on 4 slabs the Ex source at 12 mm and the Ey one at 34 mm lie on pushed planes:
// here at 13 and 33 mm, an Ey and an Ex node next to a slab boundary; the Ez pair on the pushed
// plane at 23 mm stays, Ez does not travel), against its one-GPU run: pushing, issued directly and
// replayed in blocks of 1 and 7 steps, with plain launches, one node a thread, and with the split
// (ExchangeOptions::pushing_sweeps never).
// The report says which the run took and why not: the contract deck's sources on 4 slabs, R = 2.
TEST(MultiGpu, GraphPushingSweepsKeepTheBits) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "pushing sweeps need a GPU a slab: fewer than 2 GPUs";
  Deck deck = contract_deck();
  deck.sources.clear();
  add_sources(deck, {11e-3, 13e-3, 22e-3, 23e-3, 33e-3});
  deck.sources.push_back(deck.sources[3]);
  deck.sources.back().frequency = 20e9;
  deck.sources.back().amplitude = -0.6;
  const RunResult one_gpu = run_on(1, "host-staged", 1, deck);
  const std::string pushing = "pushing sweeps (each sweep one kernel whose first blocks push its border plane)";
  for (int slabs = 2; slabs <= std::min(4, cuda_device_count()); ++slabs) {
    Fixed blocks_of_1, blocks_of_7, plain_launches, one_node, split;
    blocks_of_1.exchange.graph_steps = 1;
    blocks_of_7.exchange.graph_steps = 7;
    plain_launches.engine.dependent_launches = false;
    one_node.engine.node_pairs = false;  // the one-node pushing kernel
    split.exchange.pushing_sweeps = ExchangeOptions::PushingSweeps::never;
    for (const auto& [name, fixed] :
         {std::pair{"defaults", Fixed{}}, std::pair{"blocks of 1", blocks_of_1}, std::pair{"blocks of 7", blocks_of_7},
          std::pair{"plain launches", plain_launches}, std::pair{"one node a thread", one_node},
          std::pair{"the split", split}}) {
      SCOPED_TRACE(std::to_string(slabs) + " slabs, " + name);
      const RunResult r = run_on(slabs, "graph", 1, deck, true, fixed);
      testing::expect_same_bits(r, one_gpu);
      EXPECT_EQ(r.exchange_choices,
                std::string(name) == "the split" ? "border split (pushing sweeps turned off)" : pushing);
    }
  }
  if (cuda_device_count() >= 4)
    EXPECT_EQ(run_on(4, "graph", 1).exchange_choices,
              "border split (a source on a pushed node of subdomain 1: pushing sweeps push before the sources)");
  EXPECT_EQ(run_on(2, "graph", 2, deck).exchange_choices, "border split (halo depth 2: pushing sweeps need 1)");
  // Planes above the limit (192^2 on a GPU of 132 multiprocessors, in proportion elsewhere) take
  // the split unless pushing_sweeps always forces them.
  Deck wide = deck;
  wide.grid.nx = 200, wide.grid.ny = 200;
  const Index limit = Index(192) * 192 * cuda_multiprocessor_count(0) / 132;
  if (limit < 40000)
    EXPECT_EQ(run_on(2, "graph", 1, wide).exchange_choices,
              "border split (planes of 40000 nodes: pushing sweeps pay off up to " + std::to_string(limit) + ")");
  Fixed forced;
  forced.exchange.pushing_sweeps = ExchangeOptions::PushingSweeps::always;
  const RunResult r = run_on(2, "graph", 1, wide, true, forced);
  EXPECT_EQ(r.exchange_choices, pushing);
  testing::expect_same_bits(r, run_on(1, "host-staged", 1, wide));
}

// The cuda engine launches its kernels as programmatic dependent launches on Hopper and later
// (cuda_engine.cu, dependent_launch), each kernel waiting for the ones ahead of it before it
// touches memory; every other test runs that way. Here the plain launches (the form of GPUs before
// compute capability 9.0: CudaEngineOptions::dependent_launches false) against that reference: one
// GPU, and the border-first backends with CPML (the shell stream forked), replayed graphs included.
TEST(MultiGpu, PlainLaunchesGiveTheSameBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  reference(), cpml_reference();  // with dependent launches
  Fixed plain;
  plain.engine.dependent_launches = false;
  plain.engine.shell_fork_nodes = 0;
  EXPECT_THAT(run_on(1, "host-staged", 1, contract_deck(), true, plain).engine_choices,
              ::testing::StartsWith("plain launches (dependent launches turned off); "));
  for (int slabs : {1, 4})
    for (const auto& [exchange, depth] : {std::pair{"host-staged", 1}, std::pair{"overlap", 1}, std::pair{"b2r", 2},
                                          std::pair{"graph", 1}, std::pair{"graph", 3}}) {
      SCOPED_TRACE(std::string(exchange) + " on " + std::to_string(slabs) + " slabs, R = " + std::to_string(depth));
      expect_matches_one_gpu({exchange, slabs, depth}, contract_deck(), reference, true, plain);
      expect_matches_one_gpu({exchange, slabs, depth}, cpml_contract_deck(), cpml_reference, true, plain);
    }
}

// Every bulk sweep's CPML shell on the engine's shell stream (forced: the contract's decks are
// below the size that forks), under the border-first backends whose lanes it joins back into.
TEST(MultiGpu, CpmlShellStreamMatchesOneGpu) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  cpml_reference();  // the one-GPU run with its shells in line
  Fixed fork;
  fork.engine.shell_fork_nodes = 0;
  for (int slabs = 2; slabs <= 4; ++slabs)
    for (const auto& [exchange, depth] : {std::pair{"overlap", 1}, std::pair{"b2r", 2}, std::pair{"nccl", 1},
                                          std::pair{"p2p", 1}, std::pair{"graph", 1}, std::pair{"graph", 2}}) {
      SCOPED_TRACE(std::string(exchange) + " on " + std::to_string(slabs) + " slabs, R = " + std::to_string(depth));
      expect_matches_one_gpu({exchange, slabs, depth}, cpml_contract_deck(), cpml_reference, true, fork);
    }
}

// coop's sweeps call grid.sync() at every band of 64 planes (coop_kernel.cuh), more than the
// contract's slabs hold: bands of 1 and 5 planes here, with and without CPML, so that blocks of
// every slab wait for each other inside a sweep, also where a block has no tile left, and a sent
// plane is published after its sweep's first band instead of tile by tile.
TEST(MultiGpu, CoopBandsKeepTheBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  for (int band : {1, 5})
    for (int slabs = 1; slabs <= 4; ++slabs) {
      SCOPED_TRACE("bands of " + std::to_string(band) + " planes, " + std::to_string(slabs) + " slabs");
      Fixed bands;
      bands.exchange.coop_band = band;
      expect_matches_one_gpu({"coop", slabs, 1}, contract_deck(), reference, true, bands);
      expect_matches_one_gpu({"coop", slabs, 1}, cpml_contract_deck(), cpml_reference, true, bands);
    }
}

// coop's kernel comes in two forms, inject_sources inlined or called, and a run times both in its
// first launches (kFormTrials in coop_exchange.cu). Here each form runs the whole deck
// (--coop-form), and trials of 3 steps (ExchangeOptions::coop_trial_steps) split the run's calls
// into several launches of alternating forms, whose probe samples must land in their own slots;
// with the contract deck's two sources on one node and its late pushes (on 4 slabs), and with
// CPML. The called form adds a slab's sources in its E sweep where it has at most four, none on a
// component of the plane it sends (sweep sources: every slab on 2 and 3 slabs, the pair
// included), else in rounds after it (one slab: six sources; the two slabs of the late push on 4),
// as the inlined form always does; coop_sweep_sources false takes the rounds in both forms.
TEST(MultiGpu, CoopFormsAndTrialsKeepTheBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  Fixed inlined, called, short_trials, rounds;
  inlined.exchange.coop_form = ExchangeOptions::CoopForm::inlined;
  called.exchange.coop_form = ExchangeOptions::CoopForm::called;
  short_trials.exchange.coop_trial_steps = 3;
  rounds.exchange.coop_sweep_sources = false;
  for (const auto& [name, fixed] :
       {std::pair{"--coop-form inlined", inlined}, std::pair{"--coop-form called", called},
        std::pair{"trials of 3 steps", short_trials}, std::pair{"sources in rounds", rounds}})
    for (int slabs = 1; slabs <= 4; ++slabs) {
      SCOPED_TRACE(std::string(name) + ", " + std::to_string(slabs) + " slabs");
      expect_matches_one_gpu({"coop", slabs, 1}, contract_deck(), reference, true, fixed);
      expect_matches_one_gpu({"coop", slabs, 1}, cpml_contract_deck(), cpml_reference, true, fixed);
    }
}

// The run reports the form coop chose and why (run.json's run.exchange_choices, the summary), and
// on how many of the slabs that hold sources the called form adds them in the E sweep: both of 2;
// none of 1 (six sources); 2 of 4 (the second and the fourth slab have a source on an Ex or Ey
// node of the plane they send down).
TEST(MultiGpu, CoopReportsItsKernelForm) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  const RunResult timed = run_on(2, "coop", 1);  // 120 steps in calls of 8 and 50: four trials
  EXPECT_THAT(timed.exchange_choices,
              ::testing::MatchesRegex("kernel form sources (inlined|called) \\(timed: [0-9.]+ us/step inlined, "
                                      "[0-9.]+ called\\); the called form sweeps the sources of 2 of 2 slabs "
                                      "with sources; node pairs on 2 of 2 slabs \\(blocks of 1024 threads\\)"));
  Fixed fixed;
  fixed.exchange.coop_form = ExchangeOptions::CoopForm::called;
  const std::string called =
      "kernel form sources called (fixed by --coop-form); the called form sweeps the sources of ";
  const std::string wide = " (blocks of 1024 threads)";  // small slabs: the wide blocks
  EXPECT_EQ(run_on(1, "coop", 1, contract_deck(), true, fixed).exchange_choices,
            called + "0 of 1 slab with sources; node pairs on 1 of 1 slab" + wide);
  EXPECT_EQ(run_on(4, "coop", 1, contract_deck(), true, fixed).exchange_choices,
            called + "2 of 4 slabs with sources; node pairs on 4 of 4 slabs" + wide);
  Deck odd = contract_deck();
  odd.grid.nx = 41;  // an odd width: one node a thread
  EXPECT_EQ(run_on(2, "coop", 1, odd, true, fixed).exchange_choices,
            called + "2 of 2 slabs with sources; one node a thread");
  EXPECT_EQ(run_on(2, "overlap", 1).exchange_choices, "");
}

// coop's node pairs (float without CPML, an even width: two nodes of a row a thread, tiles 64 wide)
// in blocks of 512 and of 1024 threads keep the bits of one node a thread (coop_pairs false) and
// of the engine on one GPU: the contract deck (40 wide: one tile cut off) and a box 130 wide (two
// whole tiles and a pair), on 1-4 slabs, both kernel forms (the trials).
TEST(MultiGpu, CoopNodePairsKeepTheBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  Deck wide = contract_deck();
  wide.cell_size[0] = wide.cell_size[0] * double(wide.grid.nx) / 130.0;  // the same box
  wide.grid.nx = 130;
  const RunResult wide_reference = run_on(1, "host-staged", 1, wide);
  for (int shape : {512, 1024, 0})
    for (int slabs = 1; slabs <= 4; ++slabs) {
      const bool pairs = shape != 0;
      SCOPED_TRACE("pair blocks of " + std::to_string(shape) + ", pairs " + (pairs ? "on" : "off") + ", " +
                   std::to_string(slabs) + " slabs");
      Fixed set;
      set.exchange.coop_pairs = pairs;
      set.exchange.coop_pair_block = shape;
      set.exchange.coop_trial_steps = 7;
      expect_matches_one_gpu({"coop", slabs, 1}, contract_deck(), reference, true, set);
      const RunResult r = run_on(slabs, "coop", 1, wide, true, set);
      testing::expect_same_bits(r, wide_reference);
      EXPECT_THAT(r.exchange_choices,
                  ::testing::HasSubstr(!pairs ? std::string("one node a thread")
                                              : "(blocks of " + std::to_string(shape) + " threads)"));
    }
}

// yeex bench times coop only after its kernel-form trials: time_model runs them untimed after the
// warm-up (StepTiming::settling_steps), within the kSettlingSlack steps the model holds.
TEST(MultiGpu, BenchTimesCoopAfterItsTrials) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  const Index warmup = 2, steps = 5;
  const int repeats = 2;
  Deck deck = contract_deck();
  deck.steps = warmup + steps * repeats + kSettlingSlack;
  RunConfig config;
  config.engine = "cuda";
  config.exchange = "coop";
  config.devices = slab_devices(2);
  const StepTiming t = time_model(build_model(deck), config, warmup, steps, repeats);
  // The contract's slabs are small: trials of 256 steps; the warm-up was the first trial.
  EXPECT_EQ(t.settling_steps, 3 * 256);
  EXPECT_THAT(t.exchange_choices, ::testing::HasSubstr("(timed: "));
  config.exchange = "overlap";
  EXPECT_EQ(time_model(build_model(deck), config, warmup, steps, repeats).settling_steps, 0);
}

// Slabs as thin as the halo allows, where the border-first schedules (overlap, b2r, nccl, graph, and
// coop's border tiles) have no bulk to hide the exchange behind: nz = 4 or 8 over 2..4 slabs gives
// one-plane slabs at R = 1 (every plane is border) and slabs of R planes at R > 1.
Deck thin_deck(Index nz) {
  Deck d = contract_deck();
  d.grid.nz = nz;
  d.geometry.clear();
  d.geometry.push_back({ShapeKind::box, "lossy", {5e-3, 5e-3, 1e-3}, {30e-3, 25e-3, (nz - 1) * 1e-3}});
  d.sources.clear();
  add_sources(d, {1e-3, 2e-3, 3e-3});
  d.probes = {{"a", {21e-3, 17e-3, 1e-3}, {Component::Ez, Component::Hx}},
              {"b", {25e-3, 20e-3, 2e-3}, {Component::Ex, Component::Hy}},
              {"c", {15e-3, 10e-3, (nz - 1) * 1e-3}, {Component::Ey, Component::Hz}}};
  return d;
}

using ThinCase = std::tuple<std::string, int, Index, Index>;  // exchange, slabs, halo depth, nz
class MultiGpuThinSlabs : public ::testing::TestWithParam<ThinCase> {};

TEST_P(MultiGpuThinSlabs, MatchesOneGpuBitForBit) {
  const auto& [exchange, slabs, depth, nz] = GetParam();
  static std::map<Index, RunResult> references;
  const auto reference_run = [nz = nz]() -> const RunResult& {
    auto it = references.find(nz);
    if (it == references.end()) it = references.emplace(nz, run_on(1, "host-staged", 1, thin_deck(nz))).first;
    return it->second;
  };
  expect_matches_one_gpu({exchange, slabs, depth}, thin_deck(nz), reference_run, false);
}

std::vector<ThinCase> thin_cases() {
  std::vector<ThinCase> list;
  for (Index nz : {4, 8})
    for (int slabs = 2; slabs <= 4; ++slabs)
      for (Index depth = 1; depth <= nz / slabs && depth <= 4; ++depth) {  // the thinnest slab holds R planes
        list.emplace_back("nccl", slabs, depth, nz);
        list.emplace_back("graph", slabs, depth, nz);
        list.emplace_back(depth == 1 ? "overlap" : "b2r", slabs, depth, nz);
        if (depth == 1) list.emplace_back("coop", slabs, depth, nz);  // its border tiles are the whole slab
      }
  return list;
}

std::string thin_case_name(const ::testing::TestParamInfo<ThinCase>& info) {
  const auto& [exchange, slabs, depth, nz] = info.param;
  return exchange + "_" + std::to_string(slabs) + "slab_R" + std::to_string(depth) + "_nz" + std::to_string(nz);
}

INSTANTIATE_TEST_SUITE_P(BorderFirst, MultiGpuThinSlabs, ::testing::ValuesIn(thin_cases()), thin_case_name);

TEST(MultiGpu, CpmlRunDiffersFromPec) {
  if (cuda_device_count() < 1) GTEST_SKIP() << "no GPU";
  Deck pec = cpml_contract_deck();
  pec.boundary.fill(BoundaryKind::pec);
  EXPECT_NE(run_on(1, "host-staged", 1, pec).checksum, cpml_reference().checksum);
}

TEST(MultiGpu, SingleGpuMatchesHostEngineChecksumOfTheSameDeck) {
  if (cuda_device_count() < 1) GTEST_SKIP() << "no GPU";
  RunConfig host;
  host.subdomains = 3;
  host.exchange = "b2r";
  host.halo_depth = 2;
  const RunResult h = run_model(build_model(contract_deck()), host);
  // Across engines results agree to rounding, not bit for bit: compare one probe to 1e-5 of its peak.
  const auto& a = h.probes.probes[0].series[0];
  const auto& b = reference().probes.probes[0].series[0];
  double peak = 0, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::abs(a[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]));
  }
  EXPECT_LE(worst, 1e-5 * peak);
}

// A plane wave (TF/SF, oblique) whose total-field box spans the slab boundaries of 2-4 GPUs, with
// a dielectric block inside the box and a dipole beside it, PEC walls (so graph may take pushing
// sweeps where no corrected node lies on a pushed plane): every backend but coop keeps the one-GPU
// bits; coop refuses the deck (its kernel has no TF/SF pass), naming graph.
Deck plane_wave_deck() {
  Deck d;
  d.grid = {30, 28, 45};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 120;
  d.materials.push_back({"glass", 4.0, 0.0, 1.0, false});
  d.geometry.push_back({ShapeKind::box, "glass", {12e-3, 12e-3, 18e-3}, {18e-3, 16e-3, 27e-3}});
  PlaneWave w;
  w.direction = {0.48, 0.6, 0.64};
  w.polarisation = {0.8, 0.0, -0.6};
  w.waveform = WaveformKind::gaussian;
  w.frequency = 12e9;
  w.lower = {6e-3, 6e-3, 7e-3};
  w.upper = {24e-3, 22e-3, 38e-3};
  d.plane_waves.push_back(w);
  add_sources(d, {22e-3});
  d.probes.push_back({"inside", {15e-3, 14e-3, 30e-3}, {Component::Ex, Component::Hy}});
  d.probes.push_back({"outside", {3e-3, 3e-3, 41e-3}, {Component::Ez, Component::Hx}});
  return d;
}

const RunResult& plane_wave_reference() {
  static const RunResult r = run_on(1, "host-staged", 1, plane_wave_deck());
  return r;
}

class MultiGpuPlaneWaveContract : public ::testing::TestWithParam<ContractCase> {};

TEST_P(MultiGpuPlaneWaveContract, MatchesOneGpuBitForBit) {
  if (std::get<0>(GetParam()) == "coop") {
    if (const std::string why = unavailable_here(GetParam()); !why.empty()) GTEST_SKIP() << why;
    const auto& [exchange, slabs, depth] = GetParam();
    EXPECT_THAT([&] { run_on(slabs, exchange, depth, plane_wave_deck()); },
                ::testing::ThrowsMessage<std::invalid_argument>(::testing::HasSubstr("--exchange graph")));
    return;
  }
  expect_matches_one_gpu(GetParam(), plane_wave_deck(), plane_wave_reference, false);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, MultiGpuPlaneWaveContract, ::testing::ValuesIn(cases()), case_name);

// graph with pushing sweeps forced: slab boundaries inside the box put corrected nodes on pushed
// planes, so graph takes the border split and says why; the bits are the one-GPU run's.
TEST(MultiGpu, GraphPlaneWaveFallsBackToTheSplit) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "pushing sweeps need a GPU a slab: fewer than 2 GPUs";
  Deck deck = plane_wave_deck();
  deck.sources.clear();  // else a source on a pushed plane would be the reason
  Fixed always;
  always.exchange.pushing_sweeps = ExchangeOptions::PushingSweeps::always;
  const RunResult r = run_on(2, "graph", 1, deck, true, always);
  testing::expect_same_bits(r, run_on(1, "host-staged", 1, deck));
  EXPECT_THAT(r.exchange_choices, ::testing::HasSubstr("TF/SF node on a pushed plane"));
}

}  // namespace
}  // namespace yeex
