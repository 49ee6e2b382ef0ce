#include "src/validate/material_guide.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "physics/constants.hpp"
#include "physics/dispersion.hpp"

namespace yeex {

MaterialGuide te10_guide(bool quick) {
  const Index scale = quick ? 1 : 2;
  MaterialGuide g;
  g.ny = 8 * scale;
  g.dy = 0.96 / double(g.ny);
  g.dz = 0.125e-3 / double(scale);
  g.frequency = 10e9;
  return g;
}

Deck material_guide_deck(const MaterialGuide& g, const std::optional<Material>& material, Index steps) {
  Deck d;
  d.title =
      material ? "validate: TE10 pulse in a PEC guide with " + material->name : "validate: TE10 pulse in a PEC guide";
  d.grid = {1, g.ny, g.nz};
  d.cell_size = {g.dy, g.dy, g.dz};
  d.steps = steps;
  if (material) {
    d.materials.push_back(*material);
    GeometryObject box;
    box.material = material->name;
    box.lower = {0.0, 0.0, (double(g.first_k) - 0.5) * g.dz};
    box.upper = {g.dy, g.width(), (double(std::min(g.last_k, g.nz + 1)) - 0.5) * g.dz};
    d.geometry.push_back(box);
  }
  for (Index i = 0; i < d.grid.nx; ++i)
    for (Index j = 1; j < g.ny; ++j) {
      Source s;
      s.name = "sheet_" + std::to_string(i) + "_" + std::to_string(j);
      s.polarisation = 0;
      s.position = {i * g.dy, j * g.dy, g.source_k * g.dz};
      s.waveform = WaveformKind::ricker;
      s.frequency = g.frequency;
      s.amplitude = std::sin(std::numbers::pi * double(j) / double(g.ny));
      d.sources.push_back(s);
    }
  for (Index k : g.probes)
    d.probes.push_back({"rx_" + std::to_string(k), {0.0, (g.ny / 2) * g.dy, k * g.dz}, {Component::Ex}});
  return d;
}

const std::vector<double>& probe_record(const RunResult& r, int p) { return r.probes.probes[p].series[0]; }

std::vector<double> gated_record(std::vector<double> x, Index end, Index arrival) {
  const std::size_t n = std::min(x.size(), static_cast<std::size_t>(end));
  const std::size_t taper = (n - std::min<std::size_t>(n, arrival)) / 4;
  x.resize(n);
  for (std::size_t i = 0; i < taper; ++i) {
    const double c = std::cos(0.5 * std::numbers::pi * double(i + 1) / double(taper));
    x[n - taper + i] *= c * c;
  }
  return x;
}

void require_resolved_poles(const Material& material, double dt) {
  for (const Pole& pole : material.poles)
    if (const std::string problem = pole_problem(pole, dt); !problem.empty())
      throw std::logic_error("validation material " + material.name + ": " + problem);
}

Index steps_for_cells(const MaterialGuide& g, double dt, double cells) {
  return static_cast<Index>(cells * g.dz / kSpeedOfLight / dt);
}

std::pair<double, double> ricker_band(double f0, double fraction) {
  // x^2 exp(1 - x^2) = fraction, x = f / f0: one root below 1, one above, each by bisection.
  const auto level = [&](double x) { return x * x * std::exp(1 - x * x) - fraction; };
  const auto root = [&](double below, double above) {  // level(below) < 0 < level(above) or the reverse
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (below + above);
      (level(mid) < 0) == (level(below) < 0) ? below = mid : above = mid;
    }
    return 0.5 * (below + above);
  };
  return {root(0.0, 1.0) * f0, root(1.0, 10.0) * f0};
}

void BandError::add(double f, std::complex<double> measured, std::complex<double> reference) {
  const double m = std::abs(std::abs(measured) - std::abs(reference)) / std::abs(reference);
  const double c = std::abs(measured - reference) / std::abs(reference);
  // A NaN is kept once seen (and then fails the row): std::max would drop it.
  if (std::isnan(m) || m > magnitude) magnitude = m, at_magnitude = f;
  if (std::isnan(c) || c > complex) complex = c, at_complex = f;
}

CheckRow band_row(const std::string& quantity, double error, double at, double tolerance) {
  char where[48];
  std::snprintf(where, sizeof where, " (worst at %.2f GHz)", at / 1e9);
  return {quantity + where, "", error, 0.0, error, tolerance, "max relative over the band", error <= tolerance};
}

std::vector<CheckRow> coefficient_rows(const std::string& symbol, const std::string& reference, double f_low,
                                       double f_high, std::complex<double> measured_centre,
                                       std::complex<double> continuum_centre, const BandError& continuum,
                                       const BandError& lattice, double lattice_tolerance) {
  char band[64];
  std::snprintf(band, sizeof band, ", %.1f-%.1f GHz", f_low / 1e9, f_high / 1e9);
  char centre[64];
  std::snprintf(centre, sizeof centre, "|%s| at %.2f GHz", symbol.c_str(), 0.5 * (f_low + f_high) / 1e9);
  std::vector<CheckRow> rows;
  rows.push_back(relative_row(centre, "", std::abs(measured_centre), std::abs(continuum_centre), 0.01));
  rows.push_back(band_row("|" + symbol + "| against the continuum " + reference + band, continuum.magnitude,
                          continuum.at_magnitude, 0.01));
  rows.push_back(
      band_row(symbol + " against the continuum " + reference + band, continuum.complex, continuum.at_complex, 0.01));
  rows.push_back(band_row(symbol + " against the lattice's " + reference + band, lattice.complex, lattice.at_complex,
                          lattice_tolerance));
  return rows;
}

}  // namespace yeex
