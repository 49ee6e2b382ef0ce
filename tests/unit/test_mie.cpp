// The Mie series (src/validate/mie.hpp) against published values (Bohren & Huffman 1983,
// appendix A; Wiscombe 1979, NCAR/TN-140, its test cases), the Rayleigh limit, energy
// conservation, and its fields against each other: the boundary conditions at the sphere's
// surface and the scattered power integrated over a far sphere against the efficiency; and the
// sphere problem of `yeex validate` (src/validate/mie_sphere_problem.cpp) at its quick size.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "src/validate/mie.hpp"
#include "src/validate/problems.hpp"

namespace yeex {
namespace {

using Complex = std::complex<double>;
using namespace std::complex_literals;
constexpr double kPi = std::numbers::pi;

// Bohren & Huffman's BHMIE example: a sphere of radius 0.525 um and index 1.55 at 0.6328 um.
TEST(Mie, BohrenHuffmanExample) {
  const MieEfficiencies q = mie_efficiencies(1.55, 2 * kPi * 0.525 / 0.6328);
  EXPECT_NEAR(q.extinction, 3.10543, 1e-5);
  EXPECT_NEAR(q.scattering, 3.10543, 1e-5);
  EXPECT_NEAR(q.backscatter, 2.92534, 1e-5);
}

// Wiscombe's cases, index 1.5 and 1.5 with absorption 0.1 (1.5 - 0.1j under exp(j w t)).
TEST(Mie, WiscombeCases) {
  EXPECT_NEAR(mie_efficiencies(1.5, 10).extinction, 2.881999, 1e-6);
  EXPECT_NEAR(mie_efficiencies(1.5, 100).extinction, 2.094388, 1e-6);
  const MieEfficiencies lossy = mie_efficiencies(1.5 - 0.1i, 10);
  EXPECT_NEAR(lossy.extinction, 2.459791, 1e-6);
  EXPECT_NEAR(lossy.scattering, 1.235144, 1e-6);
  EXPECT_NEAR(lossy.absorption(), 1.224646, 1e-6);
  const MieEfficiencies large = mie_efficiencies(1.5 - 0.1i, 100);
  EXPECT_NEAR(large.extinction, 2.089822, 1e-6);
  EXPECT_NEAR(large.scattering, 1.132134, 1e-6);
}

// A small sphere scatters as a dipole: Q_sca = 8/3 x^4 |(m^2 - 1)/(m^2 + 2)|^2, to O(x^2).
TEST(Mie, SmallSphereIsRayleigh) {
  for (const Complex m : {Complex(1.5), Complex(4.0, -0.3), Complex(9.0)}) {
    const double x = 1e-3;
    const Complex alpha = (m * m - 1.0) / (m * m + 2.0);
    EXPECT_NEAR(mie_efficiencies(m, x).scattering / (8.0 / 3.0 * std::pow(x, 4) * std::norm(alpha)), 1.0, 1e-4) << m;
  }
}

TEST(Mie, LosslessSphereScattersAllItTakes) {
  for (double x : {0.3, 2.0, 17.0}) {
    const MieEfficiencies q = mie_efficiencies(2.0, x);
    EXPECT_NEAR(q.absorption(), 0.0, 1e-12 * q.extinction) << x;
  }
  EXPECT_GT(mie_efficiencies(2.0 - 0.05i, 2.0).absorption(), 0.0);
}

// At the surface: tangential E continuous, and eps E_r (m^2 E_r inside against E_r outside).
TEST(Mie, FieldsMeetTheBoundaryConditions) {
  const double k = 2 * kPi / 0.03, a = 0.012;  // x = 2.5
  for (const Complex m : {Complex(2.0), Complex(3.0, -0.4)})
    for (const auto& [theta, phi] : {std::pair{0.3, 0.2}, std::pair{1.4, 2.5}, std::pair{2.6, -1.1}}) {
      const std::array<double, 3> n{std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)};
      const std::array<double, 3> p{a * n[0], a * n[1], a * n[2]};
      std::array<Complex, 3> outside = mie_scattered_field(m, k, a, p);
      outside[0] += std::exp(-1.0i * k * p[2]);  // the incident x_hat exp(-j k z)
      const std::array<Complex, 3> inside = mie_internal_field(m, k, a, p);
      Complex normal_out = 0.0, normal_in = 0.0;
      for (int c = 0; c < 3; ++c) normal_out += outside[c] * n[c], normal_in += inside[c] * n[c];
      for (int c = 0; c < 3; ++c) {
        const Complex tangential_out = outside[c] - normal_out * n[c], tangential_in = inside[c] - normal_in * n[c];
        EXPECT_NEAR(std::abs(tangential_out - tangential_in), 0.0, 1e-9) << m << " " << theta << " " << c;
      }
      EXPECT_NEAR(std::abs(normal_out - m * m * normal_in), 0.0, 1e-9 * std::abs(normal_out) + 1e-12)
          << m << " " << theta;
    }
}

// The scattered field's power through a far sphere, over the incident intensity, is Q_sca pi a^2.
TEST(Mie, FarFieldPowerIsTheScatteringEfficiency) {
  const double k = 2 * kPi / 0.03, a = 0.012, r = 3000 * a;
  const Complex m(3.0, -0.2);
  const int nt = 360, np = 8;
  double power = 0;  // integral of |E_s|^2 r^2 dOmega (both sides over 2 eta)
  for (int i = 0; i < nt; ++i) {
    const double theta = kPi * (i + 0.5) / nt;
    for (int j = 0; j < np; ++j) {
      const double phi = 2 * kPi * (j + 0.5) / np;
      const std::array<double, 3> p{r * std::sin(theta) * std::cos(phi), r * std::sin(theta) * std::sin(phi),
                                    r * std::cos(theta)};
      const std::array<Complex, 3> e = mie_scattered_field(m, k, a, p);
      power +=
          (std::norm(e[0]) + std::norm(e[1]) + std::norm(e[2])) * r * r * std::sin(theta) * (kPi / nt) * (2 * kPi / np);
    }
  }
  EXPECT_NEAR(power / (kPi * a * a) / mie_efficiencies(m, k * a).scattering, 1.0, 2e-4);
}

// The sphere problem of `yeex validate --quick --engine host` (float32): a staircased sphere under
// a TF/SF plane wave, its scattered near field within 2 % of the series at three probes.
TEST(Mie, QuickSphereProblemMatchesTheSeries) {
  ValidationContext context;
  context.run.engine = "host";
  context.quick = true;
  const std::vector<CheckRow> rows = validate_mie_sphere(context);
  ASSERT_EQ(rows.size(), 6u);
  for (const CheckRow& r : rows)
    EXPECT_TRUE(r.pass) << r.quantity << ": measured " << r.measured << ", reference " << r.reference << ", error "
                        << r.error << " > tolerance " << r.tolerance;
}

}  // namespace
}  // namespace yeex
