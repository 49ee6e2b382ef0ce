// Dispersive materials (physics/dispersion.hpp, kernels/dispersion.hpp): the scheme's response to
// a steady sinusoid against the continuous permittivity at the mapped frequency, for each kind of
// pole; the Peplinski soil against gprMax's numbers; and the bitwise contract with dispersive
// materials crossing slab boundaries (host-staged and B+2R, whose ghost planes carry the state).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <tuple>

#include "kernels/dispersion.hpp"
#include "physics/constants.hpp"
#include "physics/dispersion.hpp"
#include "src/solver/model.hpp"
#include "tests/support/contract_deck.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

using namespace std::complex_literals;

// One E component at one node, driven by a curl that is a cosine at w (the H terms of Ampere's
// law at n+1/2), advanced by the engines' arithmetic: the main update with the material's
// e_decay and e_curl, then disperse_node. In the steady state, Ampere's law in the scheme reads
// curl = cos(w dt/2) j W eps0 eps_r(W) E with W = (2/dt) tan(w dt/2) (physics/dispersion.hpp):
// the returned value is eps_r(W) as the run realises it, at w dt = 2 pi / 400.
std::complex<double> realised_permittivity(const Material& material, double dt) {
  const UpdateCoefficients k = update_coefficients(material, dt);
  const PoleSet<double> set = pole_set<double>(dispersive_update(material, dt));
  const std::int8_t sets_of[3] = {0, -1, -1};
  std::vector<double> state(kMaxPoleStates * 3, 0.0);
  DispersionView<double> v{kMaxPoleStates, 1, nullptr, nullptr, &set, state.data()};
  double ex = 0, ey = 0, ez = 0;
  double* const e[3] = {&ex, &ey, &ez};
  // Drive with a slowly ramped cosine, then fit E's phasor over whole periods once settled.
  const Index period = 400, settle = 400 * period, fit = 50 * period;
  const double step_w = 2 * std::numbers::pi / period;  // w dt
  std::complex<double> e_sum = 0, drive_sum = 0;
  for (Index n = 0; n < settle + fit; ++n) {
    const double ramp = std::min(1.0, double(n) / (settle / 4));
    const double curl = ramp * std::cos(step_w * (n + 0.5));
    ex = fused(k.e_decay, ex, k.e_curl * curl);
    disperse_node(e, 0, sets_of, v, 0);
    if (n >= settle) {
      // E^{n+1} against its time, the curl (at n+1/2) against its own.
      e_sum += ex * std::exp(-1i * step_w * double(n + 1));
      drive_sum += std::cos(step_w * (n + 0.5)) * std::exp(-1i * step_w * (n + 0.5));
    }
  }
  const double W = 2 / dt * std::tan(step_w / 2);
  const double c = std::cos(step_w / 2);
  return drive_sum / (e_sum * c * 1i * W * kEps0);
}

void expect_realises(const Material& m, double dt) {
  const double W = 2 / dt * std::tan(std::numbers::pi / 400);
  const std::complex<double> got = realised_permittivity(m, dt), want = relative_permittivity(m, W);
  EXPECT_NEAR(got.real(), want.real(), 1e-6 * std::abs(want)) << m.name;
  EXPECT_NEAR(got.imag(), want.imag(), 1e-6 * std::abs(want)) << m.name;
}

constexpr double kDt = 2e-12;

TEST(Dispersion, DebyeRealisesItsPermittivity) {
  Material m{"water", 4.9, 0.01, 1.0, false};
  m.poles = {{.kind = PoleKind::debye, .delta_eps = 75.2, .tau = 9.2e-12}};
  expect_realises(m, kDt);
}

TEST(Dispersion, DrudeRealisesItsPermittivity) {
  Material m{"plasma", 1.0, 0.0, 1.0, false};
  m.poles = {{.kind = PoleKind::drude, .omega = 2e12, .gamma = 5e10}};
  expect_realises(m, kDt);
}

TEST(Dispersion, LorentzRealisesItsPermittivity) {
  Material m{"resonant", 2.0, 0.0, 1.0, false};
  m.poles = {{.kind = PoleKind::lorentz, .delta_eps = 3.0, .omega = 1e10, .gamma = 2e9}};
  expect_realises(m, kDt);
}

TEST(Dispersion, SeveralPolesOfEachKindTogether) {
  Material m{"mixture", 2.5, 0.02, 1.0, false};
  m.poles = {{.kind = PoleKind::debye, .delta_eps = 10, .tau = 1e-11},
             {.kind = PoleKind::drude, .omega = 5e11, .gamma = 1e11},
             {.kind = PoleKind::lorentz, .delta_eps = 1.0, .omega = 5e9, .gamma = 1e9},
             {.kind = PoleKind::lorentz, .delta_eps = 0.5, .omega = 2e10, .gamma = 3e9}};
  expect_realises(m, kDt);
}

// The realised response differs from a material without poles: the test sees the poles.
TEST(Dispersion, PolesChangeTheResponse) {
  Material plain{"plain", 4.9, 0.01, 1.0, false};
  Material water = plain;
  water.poles = {{.kind = PoleKind::debye, .delta_eps = 75.2, .tau = 9.2e-12}};
  EXPECT_GT(std::abs(realised_permittivity(water, kDt) - realised_permittivity(plain, kDt)), 10.0);
}

// gprMax 4.0.1's PeplinskiSoil.calculate_properties for one water fraction (its bin midpoint):
// sand 0.5, clay 0.5, bulk density 2 g/cm^3, sand particles 2.66 g/cm^3, water 0.1.
TEST(Dispersion, PeplinskiSoilGivesGprMaxDebyePole) {
  const Material m = peplinski_material({0.5, 0.5, 2.0, 2.66, 0.1}, "soil");
  ASSERT_EQ(m.poles.size(), 1u);
  EXPECT_NEAR(m.eps_r, 7.097319171611771, 1e-12);
  EXPECT_NEAR(m.sigma, 0.05188397676417387, 1e-14);
  EXPECT_NEAR(m.poles[0].delta_eps, 2.502980727803884, 1e-12);
  EXPECT_NEAR(m.poles[0].tau, 8.099395053946554e-12, 1e-24);
}

TEST(Dispersion, UnresolvedPolesAreNamed) {
  EXPECT_NE(pole_problem({.kind = PoleKind::debye, .delta_eps = 1, .tau = 0.5e-12}, kDt), "");
  EXPECT_EQ(pole_problem({.kind = PoleKind::debye, .delta_eps = 1, .tau = 2e-12}, kDt), "");
  EXPECT_NE(pole_problem({.kind = PoleKind::drude, .omega = 1e16, .gamma = 1e12}, kDt), "");
  EXPECT_EQ(pole_problem({.kind = PoleKind::drude, .omega = 1e16, .gamma = 1e11}, kDt), "")
      << "a metal's plasma frequency far above the band is fine";
  EXPECT_NE(pole_problem({.kind = PoleKind::lorentz, .delta_eps = 1, .omega = 1e12, .gamma = 0}, kDt), "");
}

// The bitwise contract with dispersive materials, as for CPML (tests/unit/test_cpml.cpp).
class DispersionBitwise : public ::testing::TestWithParam<std::tuple<int, std::string, Index>> {};

template <typename Real>
void expect_identical_to_one_slab(int subdomains, const std::string& exchange, Index depth) {
  const Deck deck = testing::dispersive_contract_deck();
  const RunResult reference = testing::run_on_slabs<Real>(deck, 1, "host-staged", 1);
  const RunResult split = testing::run_on_slabs<Real>(deck, subdomains, exchange, depth);
  EXPECT_EQ(split.subdomains, subdomains);
  testing::expect_same_bits(split, reference);
}

TEST_P(DispersionBitwise, Float32) {
  const auto& [n, exchange, depth] = GetParam();
  expect_identical_to_one_slab<float>(n, exchange, depth);
}

TEST_P(DispersionBitwise, Float64) {
  const auto& [n, exchange, depth] = GetParam();
  expect_identical_to_one_slab<double>(n, exchange, depth);
}

std::vector<std::tuple<int, std::string, Index>> bitwise_cases() {
  std::vector<std::tuple<int, std::string, Index>> list;
  for (int n = 2; n <= 4; ++n) list.emplace_back(n, "host-staged", 1);
  for (Index depth = 2; depth <= 4; ++depth)
    for (int n = 1; n <= 4; ++n) list.emplace_back(n, "b2r", depth);
  return list;
}

INSTANTIATE_TEST_SUITE_P(HostEngine, DispersionBitwise, ::testing::ValuesIn(bitwise_cases()), [](const auto& info) {
  return std::get<1>(info.param).substr(0, 4) + "_" + std::to_string(std::get<0>(info.param)) + "slabs_R" +
         std::to_string(std::get<2>(info.param));
});

// The contract deck's dispersion changes its fields (against the same deck with the poles taken
// away), so the bitwise cases above compare runs that exercise the pass.
TEST(Dispersion, ContractDeckDependsOnThePoles) {
  Deck plain = testing::dispersive_contract_deck();
  for (Material& m : plain.materials) m.poles.clear();
  const RunResult with = testing::run_on_slabs<float>(testing::dispersive_contract_deck(), 1, "host-staged", 1);
  const RunResult without = testing::run_on_slabs<float>(plain, 1, "host-staged", 1);
  EXPECT_NE(with.checksum, without.checksum);
}

TEST(Dispersion, SourceInADispersiveMaterialIsRefused) {
  Deck deck = testing::dispersive_contract_deck();
  deck.sources.front().position = {9e-3, 9e-3, 3e-3};  // in the soil
  try {
    build_model(deck);
    FAIL() << "a source in the soil was accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("dispersive material \"soil\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace yeex
