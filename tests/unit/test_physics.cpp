// Physics of the host engine against exact answers, through the validation library: the
// discrete energy of a closed lossless box is conserved, and a Hertzian dipole's pulse reaches a
// probe when and as the analytic solution says.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "physics/constants.hpp"
#include "src/validate/problems.hpp"

namespace yeex {
namespace {

// The same functions as `yeex validate --quick --engine host` (src/validate/), float64.
ValidationContext quick_host_f64() {
  ValidationContext context;
  context.run.engine = "host";
  context.run.precision_bits = 64;
  context.quick = true;
  return context;
}

void expect_every_row_passes(const std::vector<CheckRow>& rows) {
  ASSERT_FALSE(rows.empty());
  for (const CheckRow& r : rows)
    EXPECT_TRUE(r.pass) << r.quantity << ": measured " << r.measured << ", reference " << r.reference << ", error "
                        << r.error << " > tolerance " << r.tolerance;
}

// W^n = 1/2 sum [eps |E^n|^2 + mu H^{n-1/2} H^{n+1/2}] dV is exactly conserved by the leapfrog.
TEST(Physics, DiscreteEnergyIsConservedInAClosedLosslessBox) {
  const std::vector<CheckRow> rows = validate_energy(quick_host_f64());
  expect_every_row_passes(rows);
  EXPECT_LT(rows.front().measured, 1e-11) << "float64 rounding alone moves W by far less";
}

// The measurement is not blind: a conductivity of 1e-4 S/m in the glass block takes energy out,
// and the drift shows it far above the 1e-9 tolerance.
TEST(Physics, EnergyDriftSeesALossyBlock) {
  Deck lossy = closed_lossless_box(true);
  lossy.materials[0].sigma = 1e-4;
  const EnergyDrift d = energy_drift(lossy, quick_host_f64().run, 1000);
  EXPECT_GT(d.relative, 1e-6);
}

// The same closed box split into three slabs with host-staged exchange: W is conserved across
// the slab boundaries too (the energy is summed over the slabs' own planes).
TEST(Physics, DiscreteEnergyIsConservedAcrossSlabs) {
  ValidationContext context = quick_host_f64();
  context.run.subdomains = 3;
  context.run.exchange = "host-staged";
  expect_every_row_passes(validate_energy(context));
}

TEST(Physics, DipolePulseReachesAProbeAtTheAnalyticTime) {
  const double frequency = 2e9, r = 0.080;
  double t_exact = 0, peak = 0;
  for (int n = 0; n < 2000; ++n) {
    const double t = n * 1e-12, v = std::abs(dipole_ez_equator(frequency, 2e-3, r, t));
    if (v > peak) peak = v, t_exact = t;
  }
  EXPECT_NEAR(t_exact, 1 / frequency + r / kSpeedOfLight, 0.05e-9) << "the analytic pulse peaks at its retarded time";
  expect_every_row_passes(validate_dipole(quick_host_f64()));
}

TEST(Physics, WaveformsFollowTheirDefinitions) {
  const double f = 1e9;
  EXPECT_DOUBLE_EQ(waveform_value(WaveformKind::gaussian, f, 1 / f), 1.0);
  EXPECT_DOUBLE_EQ(waveform_value(WaveformKind::gaussian_derivative, f, 1 / f), 0.0);
  EXPECT_DOUBLE_EQ(waveform_value(WaveformKind::ricker, f, std::numbers::sqrt2 / f), 1.0);
  EXPECT_NEAR(waveform_value(WaveformKind::ramped_sine, f, 0.25 / f), 0.0625, 1e-12);
  EXPECT_NEAR(waveform_value(WaveformKind::ramped_sine, f, 4.25 / f), 1.0, 1e-12);
}

}  // namespace
}  // namespace yeex
