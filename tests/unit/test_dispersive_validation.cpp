// The dispersive-material checks of `yeex validate` (src/validate/fresnel.hpp and the
// debye_reflection, drude_slab and lorentz_slab problems): the analytic references against
// independent forms and known values, the quick problems passing on the host engine, and the
// checks failing when the modelled material is slightly off.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "physics/constants.hpp"
#include "physics/dispersion.hpp"
#include "src/validate/fresnel.hpp"
#include "src/validate/material_guide.hpp"
#include "src/validate/problems.hpp"
#include "src/validate/yee_dispersion.hpp"

namespace yeex {
namespace {

using namespace std::complex_literals;
constexpr double kPi = std::numbers::pi;

Material with_pole(double eps_inf, double sigma, Pole pole) {
  Material m;
  m.name = "m";
  m.eps_r = eps_inf, m.sigma = sigma;
  m.poles.push_back(pole);
  return m;
}

const Material kDebye = with_pole(2.0, 0.02, {.kind = PoleKind::debye, .delta_eps = 4.0, .tau = 2e-11});
const Material kDrude = with_pole(2.0, 0.0, {.kind = PoleKind::drude, .omega = 3.8e10, .gamma = 3e9});
const Material kLorentz =
    with_pole(2.0, 0.01, {.kind = PoleKind::lorentz, .delta_eps = 1.0, .omega = 6.3e10, .gamma = 1.9e10});

// The references' eps_r(w) is written from physics/material.hpp's conventions on its own: it must
// agree with the physics library's.
TEST(Fresnel, PermittivityAgreesWithThePhysicsLibrary) {
  for (const Material& m : {kDebye, kDrude, kLorentz})
    for (double f : {1e9, 7e9, 23e9}) {
      const Complex a = analytic_permittivity(m, 2 * kPi * f), b = relative_permittivity(m, 2 * kPi * f);
      EXPECT_NEAR(std::abs(a - b), 0.0, 1e-12 * std::abs(b)) << f;
      EXPECT_LT(a.imag(), 0.0) << "a passive material loses energy under exp(j w t)";
    }
}

TEST(Fresnel, LatticeWavenumberOfTheEmptyGuideIsYeeWavenumber) {
  const GuideLattice g{5e-3, 0.125e-3, 4e-13, 0.12};
  for (double f : {2e9, 10e9, 21e9}) {
    const double w = 2 * kPi * f;
    const double yee = yee_wavenumber(w, 2, {0.0, kPi / g.width, 0.0}, {g.dy, g.dy, g.dz}, g.dt, kSpeedOfLight);
    const Complex k = lattice_wavenumber(Material{}, w, g);
    EXPECT_NEAR(k.real(), yee, 1e-10 * yee) << f;
    EXPECT_EQ(k.imag(), 0.0);
  }
  // Below the cut-off the wave decays along +z.
  const Complex evanescent = lattice_wavenumber(Material{}, 2 * kPi * 1e9, g);
  EXPECT_NEAR(evanescent.real(), 0.0, 1e-9);
  EXPECT_LT(evanescent.imag(), 0.0);
}

// The lattice's coefficients tend to the continuum's at second order: halving dz (and dt, dy)
// divides the difference by 4.
TEST(Fresnel, LatticeCoefficientsConvergeToTheContinuumAtSecondOrder) {
  const double w = 2 * kPi * 12e9, width = 0.12;
  const Complex c1 = guide_wavenumber(Material{}, w, width), c2 = guide_wavenumber(kDebye, w, width);
  const InterfaceCoefficients exact = continuum_interface(c1, c2);
  const Complex exact_slab = slab_transmission(exact, c2, 5e-3);
  double previous_r = 0, previous_t = 0;
  for (double dz : {0.5e-3, 0.25e-3, 0.125e-3}) {
    const GuideLattice g{40 * dz, dz, 0.98 * dz / kSpeedOfLight, width};
    const Complex k1 = lattice_wavenumber(Material{}, w, g), k2 = lattice_wavenumber(kDebye, w, g);
    const InterfaceCoefficients lattice = lattice_interface(k1, k2, dz);
    const double error_r = std::abs(lattice.r12 - exact.r12),
                 error_t = std::abs(slab_transmission(lattice, k2, 5e-3) - exact_slab);
    if (previous_r > 0) {
      EXPECT_NEAR(previous_r / error_r, 4.0, 0.2) << dz;
      EXPECT_NEAR(previous_t / error_t, 4.0, 0.2) << dz;
    }
    previous_r = error_r, previous_t = error_t;
  }
  EXPECT_LT(previous_r, 2e-3 * std::abs(exact.r12));
}

// A lossless half-wave slab (k2 d = pi) is transparent: T = -1 from face to face.
TEST(Fresnel, HalfWaveSlabIsTransparent) {
  const Complex k1 = 100.0, k2 = 250.0;
  const Complex t = slab_transmission(continuum_interface(k1, k2), k2, kPi / 250.0);
  EXPECT_NEAR(std::abs(t + 1.0), 0.0, 1e-12);
  // An empty slab transmits with the free path's phase alone.
  EXPECT_NEAR(std::abs(slab_transmission(continuum_interface(k1, k1), k1, 0.01) - std::exp(-0.01i * k1)), 0.0, 1e-12);
}

// The lattice's closed forms against the lattice itself: the nodal field of the 1D equation
// E[k+1] + E[k-1] = (2 - K_k^2 dz^2) E[k] with K_k = 2/dz sin(k_z dz/2) of node k's material,
// marched node by node from the transmitted wave back through the interfaces, then split into
// incident and reflected waves on two nodes of the first medium.
struct Marched {
  Complex incident, reflected;  // amplitudes of a^k and a^-k in medium 1
};
Marched march(const std::vector<Complex>& k_of_node, Complex k_last, double dz, Index first_of_last) {
  // E = exp(-j k_last dz k) on the last medium's nodes first_of_last - 1 and first_of_last.
  const Index n = static_cast<Index>(k_of_node.size());
  std::vector<Complex> e(n + 1);
  e[first_of_last] = std::exp(-1.0i * k_last * dz * double(first_of_last));
  e[first_of_last - 1] = std::exp(-1.0i * k_last * dz * double(first_of_last - 1));
  for (Index k = first_of_last - 1; k >= 1; --k) {
    const Complex kd = 2.0 * std::sin(k_of_node[k] * dz / 2.0);
    e[k - 1] = (2.0 - kd * kd) * e[k] - e[k + 1];
  }
  // Medium 1 holds nodes 0 and 1: E = A a^k + B a^-k.
  const Complex a = std::exp(-1.0i * k_of_node[0] * dz);
  const Complex B = (e[1] - a * e[0]) / (1.0 / a - a), A = e[0] - B;
  return {A, B};
}

TEST(Fresnel, LatticeInterfaceMatchesTheMarchedLattice) {
  const double dz = 0.5e-3, w = 2 * kPi * 15e9;
  const GuideLattice g{5e-3, dz, 0.98 * dz / kSpeedOfLight, 0.12};
  for (const Material& m : {kDebye, kDrude, kLorentz}) {
    const Complex k1 = lattice_wavenumber(Material{}, w, g), k2 = lattice_wavenumber(m, w, g);
    // Medium 1 on nodes 0..4, medium 2 from node 5: the face at 4.5 dz.
    std::vector<Complex> nodes(5, k1);
    nodes.resize(12, k2);
    const Marched e = march(nodes, k2, dz, 6);
    const Complex a = std::exp(-1.0i * k1 * dz), b = std::exp(-1.0i * k2 * dz);
    const Complex incident_at_face = e.incident * std::pow(a, 4.5);
    const Complex r = e.reflected * std::pow(a, -4.5) / incident_at_face, t = std::pow(b, 4.5) / incident_at_face;
    const InterfaceCoefficients closed = lattice_interface(k1, k2, dz);
    EXPECT_NEAR(std::abs(r - closed.r12), 0.0, 1e-12) << m.poles[0].omega;
    EXPECT_NEAR(std::abs(t - closed.t12), 0.0, 1e-12) << m.poles[0].omega;
    // And the mirror image: t21 from the lattice with the media swapped.
    std::vector<Complex> swapped(5, k2);
    swapped.resize(12, k1);
    const Marched back = march(swapped, k1, dz, 6);
    const Complex t21 = std::pow(a, 4.5) / (back.incident * std::pow(b, 4.5));
    EXPECT_NEAR(std::abs(t21 - closed.t21), 0.0, 1e-12);
  }
}

TEST(Fresnel, LatticeSlabMatchesTheMarchedLattice) {
  const double dz = 0.5e-3, w = 2 * kPi * 9e9;
  const GuideLattice g{5e-3, dz, 0.98 * dz / kSpeedOfLight, 0.12};
  for (const Material& m : {kDebye, kDrude, kLorentz}) {
    const Complex k1 = lattice_wavenumber(Material{}, w, g), k2 = lattice_wavenumber(m, w, g);
    // Medium 1 on nodes 0..3, the slab on nodes 4..10 (faces at 3.5 and 10.5 dz), medium 1 again.
    std::vector<Complex> nodes(4, k1);
    nodes.resize(11, k2);
    nodes.resize(20, k1);
    const Marched e = march(nodes, k1, dz, 12);
    const Complex a = std::exp(-1.0i * k1 * dz);
    // Incident at the entry face, transmitted at the exit face, 7 cells further.
    const Complex t = std::pow(a, 10.5) / (e.incident * std::pow(a, 3.5));
    EXPECT_NEAR(std::abs(t - slab_transmission(lattice_interface(k1, k2, dz), k2, 7 * dz)), 0.0, 1e-11);
  }
}

TEST(Fresnel, RickerBandEdges) {
  const auto [low, high] = ricker_band(10e9, 0.1);
  for (double f : {low, high}) {
    const double x = f / 10e9;
    EXPECT_NEAR(x * x * std::exp(1 - x * x), 0.1, 1e-12);
  }
  EXPECT_NEAR(low, 2.0e9, 0.1e9);
  EXPECT_NEAR(high, 22.1e9, 0.1e9);
}

// The problems as `yeex validate --quick --engine host` runs them (float32, the default).
ValidationContext quick_host(int bits) {
  ValidationContext context;
  context.run.engine = "host";
  context.run.precision_bits = bits;
  context.quick = true;
  return context;
}

void expect_every_row_passes(const std::vector<CheckRow>& rows) {
  ASSERT_EQ(rows.size(), 4u);
  for (const CheckRow& r : rows)
    EXPECT_TRUE(r.pass) << r.quantity << ": measured " << r.measured << ", reference " << r.reference << ", error "
                        << r.error << " > tolerance " << r.tolerance;
}

TEST(DispersiveValidation, DebyeReflectionMatchesFresnel) {
  expect_every_row_passes(validate_debye_reflection(quick_host(32)));
}

TEST(DispersiveValidation, DrudeSlabMatchesTheSlabTransmission) {
  expect_every_row_passes(validate_drude_slab(quick_host(32)));
}

TEST(DispersiveValidation, LorentzSlabMatchesTheSlabTransmission) {
  expect_every_row_passes(validate_lorentz_slab(quick_host(32)));
}

// The checks are not blind: a pole 0.5 % off in the model (as a scheme realising the wrong
// eps_r would be) fails the row against the lattice's coefficient.
TEST(DispersiveValidation, PoleSlightlyOffFailsTheChecks) {
  Material debye = debye_reflection_material();
  debye.poles[0].delta_eps *= 1.005;
  EXPECT_FALSE(debye_reflection_rows(quick_host(32), debye).back().pass);
  Material drude = drude_slab_material();
  drude.poles[0].omega *= 1.005;
  EXPECT_FALSE(slab_transmission_rows(quick_host(32), drude_slab_material(), drude).back().pass);
  Material lorentz = lorentz_slab_material();
  lorentz.poles[0].gamma *= 1.005;
  EXPECT_FALSE(slab_transmission_rows(quick_host(32), lorentz_slab_material(), lorentz).back().pass);
}

}  // namespace
}  // namespace yeex
