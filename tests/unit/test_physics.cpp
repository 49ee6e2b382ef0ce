// Physics of the host engine against exact answers: the discrete energy of a closed lossless
// box is conserved, and a Hertzian dipole's pulse reaches a probe when and as the analytic
// solution says.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "src/solver/field_stats.hpp"
#include "tests/support/engine_fixture.hpp"

namespace yeex {
namespace {

using testing::SteppedModel;


Deck closed_box() {
  Deck d;
  d.grid = {14, 12, 10};
  d.cell_size = {1e-3, 1.2e-3, 0.9e-3};
  d.steps = 1000;
  d.materials.push_back({"glass", 4.0, 0.0, 1.0, false});
  d.materials.push_back({"ferrite", 1.0, 0.0, 3.0, false});
  d.geometry.push_back({ShapeKind::box, "glass", {2e-3, 2e-3, 2e-3}, {7e-3, 8e-3, 5e-3}});
  d.geometry.push_back({ShapeKind::box, "ferrite", {6e-3, 4e-3, 4e-3}, {11e-3, 9e-3, 8e-3}});
  return d;
}

// W^n = 1/2 sum [eps |E^n|^2 + mu H^{n-1/2} H^{n+1/2}] dV is exactly conserved by the leapfrog.
TEST(Physics, DiscreteEnergyIsConservedInAClosedLosslessBox) {
  SteppedModel<double> s(closed_box(), "host");
  s.randomise_e(7);
  s.step(0);  // pins the components on PEC faces; W is conserved from here on
  const FieldLayout& L = s.engine->layout();
  double first = 0, worst = 0;
  for (Index n = 1; n <= 1000; ++n) {
    const bool measure = n % 50 == 1 || n == 1000;
    std::vector<double> ex, ey, ez, hx0, hy0, hz0;
    if (measure) {
      ex = s.field(Component::Ex), ey = s.field(Component::Ey), ez = s.field(Component::Ez);
      hx0 = s.field(Component::Hx), hy0 = s.field(Component::Hy), hz0 = s.field(Component::Hz);
    }
    s.engine->update_h(s.update);
    if (measure) {
      const auto hx = s.field(Component::Hx), hy = s.field(Component::Hy), hz = s.field(Component::Hz);
      const double w = discrete_energy<double>(s.model, L, 0, s.range, {ex, ey, ez}, {hx0, hy0, hz0}, {hx, hy, hz});
      if (n == 1) first = w;
      worst = std::max(worst, std::abs(w - first) / first);
    }
    s.engine->update_e(s.update);
  }
  EXPECT_GT(first, 0.0);
  EXPECT_LE(worst, 1e-9) << "relative drift of the discrete energy over 1000 steps";
}

// Ez of a z-directed Hertzian dipole (moment I(t) dl) on its equatorial plane at distance r:
//   Ez = -dl / (4 pi eps0) [ Q/r^3 + I/(c r^2) + I'/(c^2 r) ] at retarded time t - r/c.
double dipole_ez_equator(double frequency, double dl, double r, double t) {
  const double retarded = t - r / kSpeedOfLight;
  if (retarded < 0) return 0.0;  // the source starts at t = 0
  const double zeta = 2 * std::numbers::pi * std::numbers::pi * frequency * frequency;
  const double tau = retarded - 1 / frequency, tau0 = -1 / frequency;
  const double g = std::exp(-zeta * tau * tau);
  const double current = -2 * zeta * tau * g;                    // gaussian_derivative
  const double charge = g - std::exp(-zeta * tau0 * tau0);       // its integral from 0
  const double slope = -2 * zeta * (1 - 2 * zeta * tau * tau) * g;
  const double c = kSpeedOfLight;
  return -dl / (4 * std::numbers::pi * kEps0) * (charge / (r * r * r) + current / (c * r * r) + slope / (c * c * r));
}

TEST(Physics, DipolePulseReachesAProbeAtTheAnalyticTime) {
  Deck d;
  d.grid = {200, 100, 100};
  d.cell_size = {2e-3, 2e-3, 2e-3};
  const double frequency = 2e9, r = 0.080;
  Source src;
  src.polarisation = 2;
  src.position = {0.060, 0.100, 0.100};
  src.waveform = WaveformKind::gaussian_derivative;
  src.frequency = frequency;
  d.sources.push_back(src);
  d.steps = 300;
  const Model model = build_model(d);
  EngineSetup<double> setup = make_engine_setup<double>(model, 0, d.grid.nz + 1, 1, d.steps.value());
  setup.probes = {{Component::Ez, setup.layout.offset(30 + 40, 50, 50)}};  // 80 mm along x
  auto engine = make_engine<double>("host", setup);
  const NodeRange range = update_nodes(model.grid);

  // Compare until the first wall echo (image source across x = 0, 200 mm away) starts to arrive.
  const double dt = model.dt, end = 1 / frequency + 0.200 / kSpeedOfLight - 0.35e-9;
  const Index steps = static_cast<Index>(end / dt);
  for (Index n = 0; n < steps; ++n) {
    engine->update_h(range);
    engine->update_e(range);
    engine->inject_sources(n);
    engine->sample_probes(n);
  }
  std::vector<double> ez;
  engine->fetch_probes(steps, ez);
  double peak_numeric = 0, peak_exact = 0, t_numeric = 0, t_exact = 0, err2 = 0, ref2 = 0;
  for (Index n = 0; n < steps; ++n) {
    const double t = (n + 1) * dt, numeric = ez[n], exact = dipole_ez_equator(frequency, 2e-3, r, t);
    if (std::abs(numeric) > peak_numeric) peak_numeric = std::abs(numeric), t_numeric = t;
    if (std::abs(exact) > peak_exact) peak_exact = std::abs(exact), t_exact = t;
    err2 += (numeric - exact) * (numeric - exact);
    ref2 += exact * exact;
  }
  const double expected_peak = 1 / frequency + r / kSpeedOfLight;
  EXPECT_NEAR(t_exact, expected_peak, 0.05e-9);
  EXPECT_NEAR(t_numeric, t_exact, 2 * dt) << "peak arrival, numeric vs analytic";
  EXPECT_NEAR(peak_numeric / peak_exact, 1.0, 0.02) << "peak amplitude";
  EXPECT_LT(std::sqrt(err2 / ref2), 0.02) << "relative L2 difference of the waveform at the probe";
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
