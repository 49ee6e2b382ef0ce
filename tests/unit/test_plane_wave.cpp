// Plane waves (total-field/scattered-field): the deck's [[plane_wave]] and its refusals, the 1D
// incident grid's dispersion against the 3D Yee relation, the bitwise contract of a plane-wave run
// across slabs, backends and halo depths, the validate problem's quick size and the example deck.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "physics/constants.hpp"
#include "physics/plane_wave.hpp"
#include "src/solver/solver.hpp"
#include "src/validate/problems.hpp"
#include "src/validate/spectrum.hpp"
#include "src/validate/yee_dispersion.hpp"
#include "tests/support/run_helpers.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

constexpr double kPi = std::numbers::pi;

const std::string kDeck = R"(
[grid]
cells = [24, 24, 24]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 60
[boundary]
all = "cpml"
[boundary.cpml]
cells = 6
[[material]]
name = "glass"
eps_r = 4.0
[[geometry]]
shape = "sphere"
material = "glass"
centre = [0.012, 0.012, 0.012]
radius = 0.003
[[plane_wave]]
name = "pw"
direction = [1.0, 1.0, 2.0]
polarisation = [1.0, 1.0, -1.0]
waveform = "gaussian"
frequency = 10e9
amplitude = 2.0
lower = [0.008, 0.008, 0.008]
upper = [0.016, 0.016, 0.016]
[[probe]]
name = "inside"
position = [0.010, 0.010, 0.010]
components = ["Ex", "Ey", "Ez"]
[[probe]]
name = "outside"
position = [0.020, 0.020, 0.020]
components = ["Ex", "Hy"]
)";

std::string edited(const std::string& old, const std::string& replacement) {
  std::string text = kDeck;
  const std::size_t at = text.find(old);
  EXPECT_NE(at, std::string::npos) << old;
  return text.replace(at, old.size(), replacement);
}

// The message of the DeckError `text` raises (its key included), "" if none.
std::string refusal(const std::string& text) {
  try {
    build_model(parse_deck_string(text));
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

TEST(PlaneWaveDeck, ParsesAndNormalises) {
  const Deck deck = parse_deck_string(kDeck);
  ASSERT_EQ(deck.plane_waves.size(), 1u);
  const PlaneWave& w = deck.plane_waves[0];
  EXPECT_EQ(w.name, "pw");
  EXPECT_NEAR(w.direction[2], 2 / std::sqrt(6.0), 1e-15);
  EXPECT_NEAR(w.polarisation[0], 1 / std::sqrt(3.0), 1e-15);
  EXPECT_EQ(w.amplitude, 2.0);
  const auto json = deck.to_json();
  ASSERT_EQ(json["plane_wave"].size(), 1u);
  EXPECT_EQ(json["plane_wave"][0]["waveform"], "gaussian");
  EXPECT_EQ(json["plane_wave"][0]["lower"][0], 0.008);
  // Resolved against the model: a 1D grid between the cell and the diagonal's spacing.
  const Model model = build_model(deck);
  ASSERT_EQ(model.tfsf.waves.size(), 1u);
  EXPECT_GT(model.tfsf.waves[0].spacing, 1e-3 / std::sqrt(3.0));
  EXPECT_LT(model.tfsf.waves[0].spacing, 1e-3);
  EXPECT_EQ(model.tfsf.waves[0].material, "free_space");
  EXPECT_FALSE(model.tfsf.nodes.empty());
  EXPECT_EQ(model.tfsf.incident.size(), static_cast<std::size_t>(model.steps * 2 * model.tfsf.width));
}

TEST(PlaneWaveDeck, Refusals) {
  // Each: the edit, and what the message must name.
  const std::vector<std::array<std::string, 3>> cases = {
      {"polarisation = [1.0, 1.0, -1.0]", "polarisation = [1.0, 0.0, 0.0]", "plane_wave[0].polarisation"},
      {"direction = [1.0, 1.0, 2.0]", "direction = [0.0, 0.0, 0.0]", "plane_wave[0].direction"},
      {"lower = [0.008, 0.008, 0.008]", "lower = [0.0, 0.008, 0.008]", "plane_wave[0].lower"},
      {"upper = [0.016, 0.016, 0.016]", "upper = [0.016, 0.030, 0.016]", "plane_wave[0].upper"},
      // Node 6 lies on the CPML slab's inner edge; the box must keep a node clear of it.
      {"lower = [0.008, 0.008, 0.008]", "lower = [0.008, 0.006, 0.008]", "CPML"},
      {"upper = [0.016, 0.016, 0.016]", "upper = [0.016, 0.016, 0.008]", "plane_wave[0].upper"},
      {"frequency = 10e9", "frequency = 1e15", "plane_wave[0].frequency"},
      {"waveform = \"gaussian\"", "waveform = \"square\"", "plane_wave[0].waveform"},
      {"amplitude = 2.0", "amplitude = 1e39", "plane_wave[0].amplitude"},
      {"amplitude = 2.0", "amplitude = 2.0\nphase = 1.0", "phase"},
      // The sphere reaches through the box's surface: not one material there.
      {"radius = 0.003", "radius = 0.0045", "plane_wave[0]"},
  };
  for (const auto& [old, replacement, key] : cases) {
    const std::string message = refusal(edited(old, replacement));
    EXPECT_NE(message.find(key), std::string::npos) << replacement << " -> " << message;
  }
  // A PEC sphere through the surface, and a lossy background.
  std::string pec = edited("radius = 0.003", "radius = 0.0045");
  pec.replace(pec.find("material = \"glass\"\ncentre"), std::string("material = \"glass\"").size(),
              "material = \"pec\"");
  EXPECT_NE(refusal(pec).find("PEC"), std::string::npos) << refusal(pec);
  const std::string lossy =
      edited("[[geometry]]\nshape = \"sphere\"",
             "[[material]]\nname = \"mud\"\neps_r = 4.0\nsigma = 0.1\n[[geometry]]\nshape = \"box\"\n"
             "material = \"mud\"\nlower = [0.0, 0.0, 0.0]\nupper = [0.024, 0.024, 0.024]\n"
             "[[geometry]]\nshape = \"sphere\"");
  EXPECT_NE(refusal(lossy).find("lossy"), std::string::npos) << refusal(lossy);
  // At most kMaxPlaneWaves.
  std::string many = kDeck;
  const std::size_t from = kDeck.find("[[plane_wave]]"), to = kDeck.find("[[probe]]");
  for (std::size_t n = 1; n <= kMaxPlaneWaves; ++n) {
    std::string wave = kDeck.substr(from, to - from);
    wave.replace(wave.find("\"pw\""), 4, "\"pw" + std::to_string(n) + "\"");
    many += wave;
  }
  EXPECT_NE(refusal(many).find("plane_wave"), std::string::npos) << refusal(many);
}

// The incident wave travels in one plain material: a dispersive background is refused.
TEST(PlaneWaveDeck, RefusesADispersiveBackground) {
  Deck deck = parse_deck_string(kDeck);
  Material water{.name = "water", .eps_r = 4.9};
  water.poles = {{.kind = PoleKind::debye, .delta_eps = 75.2, .tau = 9.2e-12}};
  deck.materials.push_back(water);
  deck.geometry.insert(
      deck.geometry.begin(),
      {.shape = ShapeKind::box, .material = "water", .lower = {0, 0, 0}, .upper = {0.024, 0.024, 0.024}});
  try {
    build_model(deck);
    ADD_FAILURE() << "a plane wave in a dispersive background was accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("dispersive"), std::string::npos) << e.what();
  }
}

TEST(PlaneWaveDeck, DryRunLeavesTheTableEmpty) {
  const Model model = build_model(parse_deck_string(kDeck), false);
  EXPECT_FALSE(model.tfsf.nodes.empty());
  EXPECT_TRUE(model.tfsf.incident.empty());
}

// The matched 1D grid has the 3D grid's phase velocity: its wavenumber at the matched frequency
// is the 3D Yee relation's along the direction (yee_omega of k along u gives back omega), exactly
// along an axis (the axis's cell) and along the diagonal of cubic cells (d / sqrt 3).
TEST(IncidentLine, MatchesTheYeeDispersion) {
  const std::array<double, 3> cell{1e-3, 1.2e-3, 0.8e-3};
  const double dt = 0.99 / (kSpeedOfLight * std::sqrt(1 / 1e-6 + 1 / 1.44e-6 + 1 / 0.64e-6));
  for (const double cells_per_wavelength : {40.0, 15.0, 8.0})
    for (const std::array<double, 3> u : {std::array<double, 3>{0.6, 0.0, 0.8}, {0.48, 0.6, 0.64}, {0, 0, 1}}) {
      const double omega = 2 * kPi * kSpeedOfLight / (cells_per_wavelength * 1e-3);
      const double spacing = matched_line_spacing(u, omega, cell, dt, kSpeedOfLight);
      const double k = yee_wavenumber_along(u, omega, cell, dt, kSpeedOfLight);
      EXPECT_NEAR(line_wavenumber(spacing, omega, dt, kSpeedOfLight) / k, 1.0, 1e-12);
      EXPECT_NEAR(yee_omega({k * u[0], k * u[1], k * u[2]}, cell, dt, kSpeedOfLight) / omega, 1.0, 1e-12);
      EXPECT_GE(spacing, kSpeedOfLight * dt);  // the 1D grid is stable
    }
  const double dt_cube = 0.9 * 1e-3 / (kSpeedOfLight * std::sqrt(3.0));
  EXPECT_EQ(matched_line_spacing({0, 1, 0}, 1e11, {1e-3, 2e-3, 3e-3}, dt_cube, kSpeedOfLight), 2e-3);
  const double d = 1 / std::sqrt(3.0);
  EXPECT_NEAR(matched_line_spacing({d, d, d}, 1e11, {1e-3, 1e-3, 1e-3}, dt_cube, kSpeedOfLight), 1e-3 / std::sqrt(3.0),
              1e-15);
  EXPECT_TRUE(
      std::isnan(yee_wavenumber_along({d, d, d}, 0.999 * kPi / dt_cube, {1e-3, 1e-3, 1e-3}, dt_cube, kSpeedOfLight)));
}

// The 1D grid as it runs: the phase between two of its nodes at the matched frequency, from the
// spectra of a pulse recorded there, is the 3D grid's wavenumber times their distance.
TEST(IncidentLine, RunsAtThePhaseVelocityOfTheYeeGrid) {
  const std::array<double, 3> cell{1e-3, 1e-3, 1e-3};
  const std::array<double, 3> u{0.6, 0.0, 0.8};
  const double dt = 0.99 * 1e-3 / (kSpeedOfLight * std::sqrt(3.0)), f = kSpeedOfLight / 12e-3, omega = 2 * kPi * f;
  IncidentLine line;
  line.spacing = matched_line_spacing(u, omega, cell, dt, kSpeedOfLight);
  line.dt = dt;
  line.eps = kEps0, line.mu = kMu0;
  line.width = 200;
  const Index steps = 1200;
  std::vector<double> drive(steps);
  for (Index n = 0; n < steps; ++n) drive[n] = waveform_value(WaveformKind::ricker, f, n * dt);
  const std::vector<double> table = run_incident_line(line, drive);
  const Index near = 20, far = 120;
  std::vector<double> a(steps), b(steps);
  for (Index n = 0; n < steps; ++n) a[n] = table[2 * n * line.width + near], b[n] = table[2 * n * line.width + far];
  const double phase = -std::arg(plain_dft(b, dt, f) / plain_dft(a, dt, f));
  const double expected = yee_wavenumber_along(u, omega, cell, dt, kSpeedOfLight) * (far - near) * line.spacing;
  const double turns = std::round((expected - phase) / (2 * kPi));
  EXPECT_NEAR(phase + 2 * kPi * turns, expected, 1e-6 * expected);
  // H = E / eta for the forward wave, half a cell and half a step apart: its peak is E's / eta.
  double e_peak = 0, h_peak = 0;
  for (Index n = 0; n < steps; ++n)
    e_peak = std::max(e_peak, std::abs(table[2 * n * line.width + far])),
    h_peak = std::max(h_peak, std::abs(table[(2 * n + 1) * line.width + far]));
  EXPECT_NEAR(h_peak * std::sqrt(kMu0 / kEps0) / e_peak, 1.0, 1e-2);
}

// The bitwise contract with a plane wave (oblique, across the slab boundaries, a dielectric
// sphere in the total-field box and a dipole beside it): 1 to 3 slabs, host-staged and b2r at
// depths 1 to 3, both precisions.
class PlaneWaveBitwise : public ::testing::TestWithParam<std::tuple<int, std::string, Index>> {};

Deck bitwise_deck() {
  std::string text = kDeck;
  text += R"(
[[source]]
name = "tx"
polarisation = "z"
position = [0.012, 0.009, 0.011]
waveform = "ricker"
frequency = 10e9
)";
  return parse_deck_string(text);
}

TEST_P(PlaneWaveBitwise, SameBitsAsOneSlab) {
  const auto& [n, exchange, depth] = GetParam();
  const Deck deck = bitwise_deck();
  testing::expect_same_bits(testing::run_on_slabs<float>(deck, n, exchange, depth),
                            testing::run_on_slabs<float>(deck, 1, "host-staged", 1));
  testing::expect_same_bits(testing::run_on_slabs<double>(deck, n, exchange, depth),
                            testing::run_on_slabs<double>(deck, 1, "host-staged", 1));
}

INSTANTIATE_TEST_SUITE_P(HostEngine, PlaneWaveBitwise,
                         ::testing::Values(std::tuple{2, "host-staged", 1}, std::tuple{3, "host-staged", 1},
                                           std::tuple{1, "b2r", 2}, std::tuple{2, "b2r", 2}, std::tuple{3, "b2r", 3}),
                         [](const auto& info) {
                           return std::get<1>(info.param).substr(0, 4) + "_" + std::to_string(std::get<0>(info.param)) +
                                  "slabs_R" + std::to_string(std::get<2>(info.param));
                         });

// A run resumed from a checkpoint picks the incident field up at its step: the same bits as a run
// straight through (one slab, then two).
TEST(PlaneWaveRun, ResumesFromACheckpoint) {
  testing::ScratchDir dir;
  Deck deck = bitwise_deck();
  RunConfig config;
  config.engine = "host";
  const RunResult whole = run_model(build_model(deck), config);
  RunConfig first = config;
  first.checkpoint.file = dir / "checkpoint.h5";
  first.checkpoint.every_steps = 25;
  Deck shorter = deck;
  shorter.steps = 26;
  run_model(build_model(shorter), first);
  RunConfig resumed = config;
  resumed.subdomains = 2;
  resumed.checkpoint.resume = first.checkpoint.file;
  EXPECT_EQ(run_model(build_model(deck), resumed).checksum, whole.checksum);
}

// The wave is there: inside the box the probe sees the incident pulse at about its amplitude;
// outside, before anything scattered by the sphere could arrive, nothing.
TEST(PlaneWaveRun, TotalFieldInsideScatteredOutside) {
  std::string text = edited("material = \"glass\"", "material = \"free_space\"");
  text = text.replace(text.find("steps = 60"), 10, "steps = 120");
  const RunResult r = testing::run_on_slabs<double>(parse_deck_string(text), 1, "host-staged", 1);
  double inside = 0, outside = 0;
  const auto& in = r.probes.probes[0].series;
  for (std::size_t n = 0; n < in[0].size(); ++n)
    inside = std::max(inside, std::sqrt(in[0][n] * in[0][n] + in[1][n] * in[1][n] + in[2][n] * in[2][n]));
  for (double v : r.probes.probes[1].series[0]) outside = std::max(outside, std::abs(v));
  EXPECT_NEAR(inside, 2.0, 0.05);
  EXPECT_LT(outside, 2.0 * 1e-2);
}

TEST(PlaneWaveValidation, QuickSizePasses) {
  ValidationContext context;
  context.quick = true;
  context.run.subdomains = 2;
  const std::vector<CheckRow> rows = validate_tfsf(context);
  ASSERT_EQ(rows.size(), 6u);
  for (const CheckRow& row : rows) {
    EXPECT_TRUE(row.pass) << row.quantity << ": " << row.measured << " " << row.unit << " (error " << row.error
                          << ", tolerance " << row.tolerance << ")";
    std::printf("%s: %.1f %s\n", row.quantity.c_str(), row.measured, row.unit.c_str());
  }
}

// inputs/plane_wave_sphere.toml: parses, and a short run of it on two slabs gives the one-slab bits.
TEST(PlaneWaveExample, SphereDeckRuns) {
  Deck deck = parse_deck_file(YEEX_SOURCE_DIR "/inputs/plane_wave_sphere.toml");
  ASSERT_EQ(deck.plane_waves.size(), 1u);
  deck.steps = 40, deck.duration.reset();
  testing::expect_same_bits(testing::run_on_slabs<float>(deck, 2, "host-staged", 1),
                            testing::run_on_slabs<float>(deck, 1, "host-staged", 1));
}

}  // namespace
}  // namespace yeex
