// The validation library's own parts: the discrete dispersion relation against worked values,
// the spectral estimator against synthetic signals, and the row logic (NaN never passes).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "physics/constants.hpp"
#include "src/validate/spectrum.hpp"
#include "src/validate/validation.hpp"
#include "src/validate/yee_dispersion.hpp"

namespace yeex {
namespace {

constexpr double kPi = std::numbers::pi;

// Worked example of the reference notes (fdtd-codes.md, 6.3): 50 x 20 x 60 mm, 1 mm cells,
// 0.99 x CFL: TE101 3.902217 GHz, TM110 8.067964 GHz (continuum 3.902423 and 8.072159).
TEST(YeeDispersion, CavityResonancesMatchTheWorkedExample) {
  const std::array<double, 3> d{1e-3, 1e-3, 1e-3}, L{50e-3, 20e-3, 60e-3};
  const double dt = 0.99 / (kSpeedOfLight * std::sqrt(3.0) / 1e-3);
  EXPECT_NEAR(yee_cavity_frequency({1, 0, 1}, L, d, dt, kSpeedOfLight) / 1e9, 3.902217, 2e-6);
  EXPECT_NEAR(yee_cavity_frequency({1, 1, 0}, L, d, dt, kSpeedOfLight) / 1e9, 8.067964, 2e-6);
}

// Along an axis at Courant S = 1/sqrt(3) and 10 cells per wavelength, v_p / c = 0.98867 (ibid.
// 6.2); on the diagonal at that S the scheme is exact (v_p = c).
TEST(YeeDispersion, PhaseVelocityMatchesTheTable) {
  const std::array<double, 3> d{1e-3, 1e-3, 1e-3};
  const double dt = 1e-3 / (kSpeedOfLight * std::sqrt(3.0)), f = kSpeedOfLight / 10e-3, w = 2 * kPi * f;
  const double k = yee_wavenumber(w, 0, {0, 0, 0}, d, dt, kSpeedOfLight);
  EXPECT_NEAR(w / k / kSpeedOfLight, 0.98867, 1e-5);
  const double kd = 2 * kPi * f / kSpeedOfLight / std::sqrt(3.0);
  EXPECT_NEAR(yee_omega({kd, kd, kd}, d, dt, kSpeedOfLight) / w, 1.0, 1e-12);
  // Group velocity against a central difference of the relation itself.
  const double dw = 1e-4 * w;
  const double fd = 2 * dw /
                    (yee_wavenumber(w + dw, 0, {0, 0, 0}, d, dt, kSpeedOfLight) -
                     yee_wavenumber(w - dw, 0, {0, 0, 0}, d, dt, kSpeedOfLight));
  EXPECT_NEAR(yee_group_velocity(w, 0, {0, 0, 0}, d, dt, kSpeedOfLight) / fd, 1.0, 1e-7);
  EXPECT_TRUE(std::isnan(yee_wavenumber(1e6, 0, {0, kPi / 1e-2, 0}, d, dt, kSpeedOfLight))) << "below cut-off";
}

// Three undamped sinusoids 5 % apart (as in the cavity check) plus a constant: every peak is
// found to 1e-6 of its frequency (the weak one beside the strong one is the worst, ~4e-7), far
// inside the cavity check's tolerances (1e-3 quick, 1e-4 full).
TEST(Spectrum, PeaksOfUndampedSinusoidsAreLocatedToBetterThan1e6) {
  const double dt = 2e-12, f[3] = {8.3e9, 8.73e9, 11.4e9};
  std::vector<double> x(12000);
  for (std::size_t n = 0; n < x.size(); ++n)
    x[n] = 0.3 + std::cos(2 * kPi * f[0] * n * dt + 0.3) + 0.2 * std::sin(2 * kPi * f[1] * n * dt) +
           0.05 * std::cos(2 * kPi * f[2] * n * dt + 1.0);
  const auto peaks = spectral_peaks({x}, dt, 20e9, 1e-6);
  ASSERT_GE(peaks.size(), 3u);
  for (double expected : f) {
    double best = 1;
    for (const auto& p : peaks) best = std::min(best, std::abs(p.frequency / expected - 1));
    EXPECT_LT(best, 1e-6) << expected;
  }
}

TEST(Spectrum, PlainDftShiftTheoremGivesTheDelay) {
  const double dt = 1e-12, f = 20e9;
  std::vector<double> a(4000), b(4000);
  const auto pulse = [](double t) { return std::exp(-std::pow((t - 0.5e-9) / 0.05e-9, 2)); };
  for (std::size_t n = 0; n < a.size(); ++n) a[n] = pulse(n * dt), b[n] = pulse(n * dt - 0.7e-9);
  const double phase = -std::arg(plain_dft(b, dt, f) / plain_dft(a, dt, f));
  EXPECT_NEAR(std::remainder(phase - 2 * kPi * f * 0.7e-9, 2 * kPi), 0.0, 1e-9);
}

TEST(Validation, NanNeverPasses) {
  EXPECT_FALSE(relative_row("x", "", std::nan(""), 1.0, 1.0).pass);
  EXPECT_TRUE(relative_row("x", "", 1.0005, 1.0, 1e-3).pass);
  EXPECT_FALSE(relative_row("x", "", 1.002, 1.0, 1e-3).pass);
}

TEST(Validation, UnknownProblemIsRefused) {
  ValidationContext context;
  EXPECT_THROW(run_validation(context, {"cavity", "nonsense"}), std::invalid_argument);
}

}  // namespace
}  // namespace yeex
