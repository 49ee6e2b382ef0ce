// Propagation speed: a pulse in the TE10 mode of a PEC guide, between probes, against the
// numerical dispersion relation.
//
// Why a guide: with PEC on every outer face no field can be uniform across the two transverse
// axes (E would be tangential to one pair of walls), so an exact plane wave does not fit in a
// closed box. The TE10 mode does, exactly, on the Yee grid: E along x, uniform in x, sin(pi j /
// Ny) across y (zero on the y walls), travelling along z. Its nodal shape is an eigenvector of the
// discrete transverse curl-curl, so it is the superposition of two discrete plane waves with
// k = (0, +-pi/Ly, k_z) and obeys the Yee relation (yee_dispersion.hpp) with k_y = pi/Ly exactly.
// A sheet of x dipoles weighted by that shape excites this mode and nothing else (no evanescent
// higher modes), so probes may sit close to the source.
//
// Measurement, no reference used: the pulse passes three probes at z1, z1 + dz, z1 + D before any
// wall echo arrives (each record ends before the first echo can reach its probe at speed c). At
// frequency f the ratio of the probes' spectra is exp(-i k_z d). The one-cell pair gives k_z
// without ambiguity (k_z dz < pi); it picks the 2 pi branch of the long pair, which gives k_z to
// 1/D. Phase velocity v_p = w / k_z; group velocity v_g = dw/dk_z by a central difference
// (f +- 0.5 %, whose own error, ~1e-5, is far below the tolerance).
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <string>

#include "physics/constants.hpp"
#include "src/validate/problems.hpp"
#include "src/validate/spectrum.hpp"
#include "src/validate/yee_dispersion.hpp"

namespace yeex {
namespace {

constexpr double kPi = std::numbers::pi;

struct Guide {
  Index ny, nz, source_k, probe_k, distance;  // cells
  double cell;                                // m, cubic cells
};

Guide guide(bool quick) {
  // The source far enough from the z = 0 wall that its echo trails the pulse by room for the
  // pulse, its dispersive spread over the guide and the taper. The far wall is further still.
  if (quick) return {40, 600, 150, 190, 200, 1e-3};
  return {80, 1500, 300, 340, 800, 1e-3};
}

Deck guide_deck(const Guide& g) {
  Deck d;
  d.title = "validate: TE10 pulse in a PEC guide";
  d.grid = {2, g.ny, g.nz};
  d.cell_size = {g.cell, g.cell, g.cell};
  // Record until the echo from the z = 0 wall (path source_k + probe_k) could reach the far probe.
  const double echo = (g.source_k + g.probe_k + g.distance) * g.cell / kSpeedOfLight;
  d.steps = static_cast<Index>(echo / d.dt()) + 1;
  for (Index i = 0; i < d.grid.nx; ++i)
    for (Index j = 1; j < g.ny; ++j) {
      Source s;
      s.name = "sheet_" + std::to_string(i) + "_" + std::to_string(j);
      s.polarisation = 0;
      s.position = {i * g.cell, j * g.cell, g.source_k * g.cell};
      s.waveform = WaveformKind::ricker;
      s.frequency = 30e9;  // > 1/3 of its peak spectrum from 12 to 56 GHz, little near the cut-off
      s.amplitude = std::sin(kPi * double(j) / double(g.ny));
      d.sources.push_back(s);
    }
  for (Index k : {g.probe_k, g.probe_k + 1, g.probe_k + g.distance})
    d.probes.push_back({"rx_" + std::to_string(k), {0.0, (g.ny / 2) * g.cell, k * g.cell}, {Component::Ex}});
  return d;
}

// Record of probe p up to the step before the first echo could arrive there (at speed c), its
// last quarter tapered to zero (cos^2): the slow tail near the cut-off, cut by the gate, then
// leaks far less into the measured frequencies. The pulse itself has passed before the taper.
std::vector<double> gated(const RunResult& r, const Model& m, const Guide& g, int p, Index probe_k) {
  const double echo = (g.source_k + probe_k) * g.cell / kSpeedOfLight;
  const std::vector<double>& series = r.probes.probes[p].series[0];
  const std::size_t n = std::min(series.size(), static_cast<std::size_t>(echo / m.dt)), taper = n / 4;
  std::vector<double> x(series.begin(), series.begin() + n);
  for (std::size_t i = 0; i < taper; ++i) {
    const double c = std::cos(0.5 * kPi * double(i + 1) / double(taper));
    x[n - taper + i] *= c * c;
  }
  return x;
}

}  // namespace

Deck propagation_deck(bool quick) { return guide_deck(guide(quick)); }

std::vector<CheckRow> validate_propagation(const ValidationContext& context) {
  const Guide g = guide(context.quick);
  const Model model = build_model(guide_deck(g));
  const RunResult result = run_model(model, context.run);
  const std::vector<double> near = gated(result, model, g, 0, g.probe_k),
                            next = gated(result, model, g, 1, g.probe_k + 1),
                            far = gated(result, model, g, 2, g.probe_k + g.distance);
  const double dz = g.cell, D = g.distance * g.cell, dt = model.dt;
  const std::array<double, 3> k_transverse{0.0, kPi / (g.ny * g.cell), 0.0};

  const auto measured_k = [&](double f) {
    const double coarse = -std::arg(plain_dft(next, dt, f) / plain_dft(near, dt, f)) / dz;
    const double phase = -std::arg(plain_dft(far, dt, f) / plain_dft(near, dt, f));
    const double branch = std::round((coarse * D - phase) / (2 * kPi));
    return (phase + 2 * kPi * branch) / D;
  };
  // Tolerances. The measurement is exact up to what the gate cuts off (the tapered slow tail near
  // the cut-off) and rounding: v_p comes out within ~1e-6 and v_g within ~1e-4 (float32, quick),
  // several times better on the 4x longer full run. The discrete v_p differs from the continuum
  // guide's by 0.25 % (20 cells per wavelength) to 1.8 % (8 cells), so 0.01 % on v_p tells the
  // discrete relation from the continuum one by a factor 25 or more; v_g, a difference of two
  // phases over f +- 0.5 % (whose own truncation error is ~1e-6), gets 0.1 % (quick) and 0.01 %
  // (full, where the measured figures are ~1e-9 for v_p and ~1e-6 for v_g).
  const double tolerance_phase = context.quick ? 1e-4 : 1e-5, tolerance_group = context.quick ? 1e-3 : 1e-4;
  std::vector<CheckRow> rows;
  for (const double cells_per_wavelength : {20.0, 12.0, 8.0}) {
    const double f = kSpeedOfLight / (cells_per_wavelength * g.cell), w = 2 * kPi * f;
    char label[64];
    std::snprintf(label, sizeof label, "%.1f GHz (%g cells/wavelength)", f / 1e9, cells_per_wavelength);
    const double k_ref = yee_wavenumber(w, 2, k_transverse, model.cell, dt, kSpeedOfLight);
    rows.push_back(relative_row(std::string("phase velocity at ") + label, "c", w / measured_k(f) / kSpeedOfLight,
                                w / k_ref / kSpeedOfLight, tolerance_phase));
    const double df = 0.005 * f;
    const double v_group = 2 * kPi * 2 * df / (measured_k(f + df) - measured_k(f - df));
    rows.push_back(relative_row(std::string("group velocity at ") + label, "c", v_group / kSpeedOfLight,
                                yee_group_velocity(w, 2, k_transverse, model.cell, dt, kSpeedOfLight) / kSpeedOfLight,
                                tolerance_group));
  }
  return rows;
}

}  // namespace yeex
