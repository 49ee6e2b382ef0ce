// PEC rectangular cavity: the lowest resonances, measured from probe time series, against the
// discrete Yee dispersion relation with k_i = m_i pi / L_i (src/validate/yee_dispersion.hpp).
//
// Set-up: a box with three different side lengths and three different cell sizes (so that the
// modes are distinct and every axis' coefficients matter), three short dipoles (x, y, z) at
// nodes off every symmetry plane, driven by a gaussian_derivative pulse (no net charge, so no
// static field) covering the lowest modes, and two probes recording all six components at
// unsymmetric nodes. After the pulse has ended the probes record a sum of undamped sinusoids, one
// per discrete eigenmode; spectral_peaks() (Blackman-Harris window, golden-section search on the
// exact DFT) locates each peak, and each expected mode is matched to the nearest peak found.
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <numbers>
#include <string>

#include "physics/constants.hpp"
#include "src/validate/problems.hpp"
#include "src/validate/spectrum.hpp"
#include "src/validate/yee_dispersion.hpp"

namespace yeex {
namespace {

struct CavityMode {
  std::array<int, 3> index;
  double frequency;  // discrete (Yee), Hz
};

// TE^z / TM^z naming (Pozar): TM needs m, n >= 1; TE needs p >= 1; both when none is zero.
std::string mode_name(const std::array<int, 3>& m) {
  const std::string digits = std::to_string(m[0]) + std::to_string(m[1]) + std::to_string(m[2]);
  if (m[2] == 0) return "TM" + digits;
  if (m[0] == 0 || m[1] == 0) return "TE" + digits;
  return "TE/TM" + digits;
}

// The `count` lowest modes (at most one index zero: otherwise the fields vanish).
std::vector<CavityMode> lowest_modes(const Model& model, int count) {
  const Vec3 length{model.grid.nx * model.cell[0], model.grid.ny * model.cell[1], model.grid.nz * model.cell[2]};
  std::vector<CavityMode> modes;
  for (int m = 0; m <= 4; ++m)
    for (int n = 0; n <= 4; ++n)
      for (int p = 0; p <= 4; ++p) {
        if ((m == 0) + (n == 0) + (p == 0) > 1) continue;
        const std::array<int, 3> index{m, n, p};
        modes.push_back({index, yee_cavity_frequency(index, length, model.cell, model.dt, kSpeedOfLight)});
      }
  std::sort(modes.begin(), modes.end(), [](const auto& a, const auto& b) { return a.frequency < b.frequency; });
  modes.resize(count);
  return modes;
}

}  // namespace

Deck cavity_deck(bool quick) {
  // Quick: 10 x 7 x 13 cells of 2 x 2.4 x 1.8 mm. So coarse that the discrete resonances lie
  // 0.25-0.7 % below the continuum ones: with the 0.1 % tolerance the check tells the discrete
  // relation from the continuum one (the continuum formula would fail it). Full: twice as fine.
  const int scale = quick ? 1 : 2;
  Deck d;
  d.title = "validate: PEC cavity";
  d.grid = {10 * scale, 7 * scale, 13 * scale};
  d.cell_size = {2e-3 / scale, 2.4e-3 / scale, 1.8e-3 / scale};
  d.courant = 0.6;  // lower than the usual 0.99: less cancellation of the space and time errors
  d.duration = quick ? 30e-9 : 60e-9;
  const Vec3 L{d.grid.nx * d.cell_size[0], d.grid.ny * d.cell_size[1], d.grid.nz * d.cell_size[2]};
  const std::array<Vec3, 3> where{Vec3{0.23 * L[0], 0.37 * L[1], 0.29 * L[2]},
                                  Vec3{0.61 * L[0], 0.21 * L[1], 0.67 * L[2]},
                                  Vec3{0.38 * L[0], 0.72 * L[1], 0.41 * L[2]}};
  // gaussian_derivative at 12 GHz: spectrum peaks near 8.6 GHz, > 1/3 of its peak from 3 to 21 GHz.
  add_dipole_triplet(d, where, WaveformKind::gaussian_derivative, 12e9);
  for (const Vec3& p : {Vec3{0.31 * L[0], 0.58 * L[1], 0.17 * L[2]}, Vec3{0.77 * L[0], 0.36 * L[1], 0.83 * L[2]}})
    d.probes.push_back({"rx" + std::to_string(d.probes.size()), p, {kAllComponents.begin(), kAllComponents.end()}});
  return d;
}

std::vector<CheckRow> validate_cavity(const ValidationContext& context) {
  const Model model = build_model(cavity_deck(context.quick));
  const RunResult result = run_model(model, context.run);

  // Analyse from the end of the pulse (gaussian_derivative: |W| < 1e-12 of its peak after 3/f).
  const double pulse_end = 3.0 / model.deck.sources.front().frequency;
  const std::size_t first = static_cast<std::size_t>(std::ceil(pulse_end / model.dt));
  std::vector<std::vector<double>> signals;
  for (const auto& probe : result.probes.probes)
    for (std::size_t c = 0; c < probe.components.size(); ++c) {
      const double scale = is_electric(probe.components[c]) ? 1.0 : 376.730313;  // H in units of E / eta0
      std::vector<double> s(probe.series[c].begin() + first, probe.series[c].end());
      for (double& v : s) v *= scale;
      signals.push_back(std::move(s));
    }

  const std::vector<CavityMode> modes = lowest_modes(model, 6);
  double bin = 0;
  const std::vector<SpectralPeak> peaks =
      coarse_spectral_peaks(signals, model.dt, 1.5 * modes.back().frequency, 1e-6, bin);
  // Tolerance: the 0.1 % in the quick run. The estimator itself is good to ~1e-7 here
  // (the modes are >= 5 % apart, more than 20 Blackman-Harris bins for a 30 ns record), so the
  // full run, whose discrete shifts are 4x smaller (0.06-0.18 %), is held to 0.01 %.
  const double tolerance = context.quick ? 1e-3 : 1e-4;
  std::vector<CheckRow> rows;
  for (const auto& mode : modes) {
    // The peak found nearest to the expected mode (the modes are >= 5 % apart, the coarse peaks
    // within 1/8 bin of their tops), then its top located exactly.
    const SpectralPeak* nearest = nullptr;
    for (const auto& p : peaks)
      if (!nearest || std::abs(p.frequency - mode.frequency) < std::abs(nearest->frequency - mode.frequency))
        nearest = &p;
    const double measured = nearest ? refine_spectral_peak(signals, model.dt, *nearest, bin).frequency
                                    : std::numeric_limits<double>::quiet_NaN();
    rows.push_back(
        relative_row(mode_name(mode.index) + " frequency", "GHz", measured / 1e9, mode.frequency / 1e9, tolerance));
  }
  return rows;
}

}  // namespace yeex
