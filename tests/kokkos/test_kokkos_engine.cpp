// The kokkos engine (built with YEEX_ENABLE_KOKKOS=ON, label `kokkos`): on a CPU execution space it
// gives the host engine's bits, node for node, after every step (both loop over the same cell
// functions, flush subnormals alike, and add sources in the same order), and it keeps the bitwise
// contract across z-slabs, backends and halo depths as the host engine does.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <tuple>

#include "src/solver/engines.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/contract_deck.hpp"
#include "tests/support/engine_fixture.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

// Kokkos for the whole test program, as main holds it for yeex.
class KokkosEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { runtimes_.emplace(); }
  void TearDown() override { runtimes_.reset(); }

 private:
  std::optional<EngineRuntimes> runtimes_;
};
[[maybe_unused]] ::testing::Environment* const kKokkos = ::testing::AddGlobalTestEnvironment(new KokkosEnvironment);

TEST(KokkosEngine, IsListedAndRunsHere) {
  bool found = false;
  for (const EngineInfo& e : engine_list())
    if (e.name == "kokkos") {
      found = true;
      EXPECT_TRUE(e.available) << e.why_not;
      EXPECT_NE(e.description.find("Kokkos"), std::string::npos) << e.description;
    }
  EXPECT_TRUE(found);
}

// Steps a deck on both CPU engines, randomised E first, and compares all six arrays (pads and
// ghosts included) bit for bit after every step.
template <typename Real>
void expect_host_bits(const Deck& deck, Index steps) {
  testing::SteppedModel<Real> host(deck, "host"), kokkos(deck, "kokkos");
  ASSERT_EQ(kokkos.engine->name(), "kokkos");
  host.randomise_e(7);
  kokkos.randomise_e(7);
  for (Index n = 0; n < steps; ++n) {
    host.step(n);
    kokkos.step(n);
    for (Component c : kAllComponents) {
      const std::vector<Real> a = host.field(c), b = kokkos.field(c);
      ASSERT_EQ(a.size(), b.size());
      ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)), 0)
          << component_name(c) << " differs after step " << n;
    }
  }
}

TEST(KokkosEngine, SameBitsAsHostEngineFloat32) { expect_host_bits<float>(testing::contract_deck(), 12); }
TEST(KokkosEngine, SameBitsAsHostEngineFloat64) { expect_host_bits<double>(testing::contract_deck(), 12); }
TEST(KokkosEngine, SameBitsAsHostEngineWithCpmlFloat32) { expect_host_bits<float>(testing::cpml_contract_deck(), 12); }
TEST(KokkosEngine, SameBitsAsHostEngineWithCpmlFloat64) { expect_host_bits<double>(testing::cpml_contract_deck(), 12); }

TEST(KokkosEngine, SameBitsAsHostEngineWithDispersionFloat32) {
  expect_host_bits<float>(testing::dispersive_contract_deck(), 12);
}
TEST(KokkosEngine, SameBitsAsHostEngineWithDispersionFloat64) {
  expect_host_bits<double>(testing::dispersive_contract_deck(), 12);
}

TEST(KokkosEngine, ScanFindsEveryNonFiniteValue) {
  testing::expect_finite_scan_finds_every_value<float>(testing::contract_deck(), "kokkos");
  testing::expect_finite_scan_finds_every_value<double>(testing::contract_deck(), "kokkos");
}

// Whole runs, probes and checksums: the kokkos engine on 1-4 slabs against the host engine on one.
using SlabCase = std::tuple<int, std::string, Index>;  // slabs, exchange, halo depth
class KokkosContract : public ::testing::TestWithParam<SlabCase> {};

template <typename Real>
void expect_contract(const Deck& deck, const SlabCase& split_case) {
  const auto& [slabs, exchange, depth] = split_case;
  const RunResult reference = testing::run_on_slabs<Real>(deck, 1, "host-staged", 1, "host");
  const RunResult split = testing::run_on_slabs<Real>(deck, slabs, exchange, depth, "kokkos");
  EXPECT_EQ(split.engine, "kokkos");
  EXPECT_EQ(split.subdomains, slabs);
  testing::expect_same_bits(split, reference);
}

TEST_P(KokkosContract, Float32) { expect_contract<float>(testing::contract_deck(), GetParam()); }
TEST_P(KokkosContract, Float64) { expect_contract<double>(testing::contract_deck(), GetParam()); }
TEST_P(KokkosContract, CpmlFloat32) { expect_contract<float>(testing::cpml_contract_deck(), GetParam()); }
TEST_P(KokkosContract, CpmlFloat64) { expect_contract<double>(testing::cpml_contract_deck(), GetParam()); }
TEST_P(KokkosContract, DispersionFloat32) { expect_contract<float>(testing::dispersive_contract_deck(), GetParam()); }

INSTANTIATE_TEST_SUITE_P(Slabs, KokkosContract,
                         ::testing::Values(SlabCase{1, "host-staged", 1}, SlabCase{2, "host-staged", 1},
                                           SlabCase{3, "host-staged", 1}, SlabCase{4, "host-staged", 1},
                                           SlabCase{2, "b2r", 2}, SlabCase{3, "b2r", 4}, SlabCase{4, "b2r", 3}),
                         [](const auto& info) {
                           return std::get<1>(info.param).substr(0, 4) + "_" + std::to_string(std::get<0>(info.param)) +
                                  "slabs_R" + std::to_string(std::get<2>(info.param));
                         });

}  // namespace
}  // namespace yeex
