#include "src/solver/cpml_reflection.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "physics/constants.hpp"
#include "src/solver/solver.hpp"

namespace yeex {
namespace {

// The Ricker pulse peaks at sqrt(2)/f and is over by about twice that; its charge integral is
// zero, so no static field is left for the absorber to deal with.
constexpr double kCellsPerWavelength = 20;

struct Geometry {
  Index small = 0, reference = 0, probe_offset = 0, steps = 0;
  double frequency = 0, dt = 0;
};

Geometry geometry(const CpmlReflectionOptions& o) {
  Geometry g;
  g.small = 2 * o.cpml.cells + o.interior;
  g.probe_offset = o.interior / 2 - 2;  // from the source toward x_min: 2 cells from the slab
  g.frequency = kSpeedOfLight / (kCellsPerWavelength * o.cell);
  g.dt = 0.99 / (kSpeedOfLight * std::sqrt(3.0) / o.cell);
  const double speed = kSpeedOfLight * g.dt / o.cell;  // cells per step
  // Window: the pulse (2 * sqrt(2)/f long) has gone to the slab and back past the probe.
  const double pulse_steps = 2 * std::sqrt(2.0) / g.frequency / g.dt;
  const double round_trip = (o.interior / 2.0 + (o.interior / 2.0 - g.probe_offset)) / speed;
  g.steps = static_cast<Index>(std::ceil(pulse_steps + round_trip)) + 10;
  // Reference half-width H: the first wall echo at the probe has travelled 2H - offset cells.
  const double half = (speed * g.steps + g.probe_offset) / 2 + 6;
  g.reference = 2 * static_cast<Index>(std::ceil(half));
  return g;
}

}  // namespace

Deck cpml_reflection_deck(const CpmlReflectionOptions& o, bool reference) {
  const Geometry g = geometry(o);
  const Index n = reference ? g.reference : g.small;
  Deck d;
  d.title = reference ? "CPML reflection: reference box" : "CPML reflection: CPML box";
  d.grid = {n, n, n};
  d.cell_size = {o.cell, o.cell, o.cell};
  d.steps = g.steps;
  d.courant = 0.99;
  d.boundary.fill(reference ? BoundaryKind::pec : BoundaryKind::cpml);
  d.cpml = o.cpml;
  const double centre = (n / 2) * o.cell;
  Source s;
  s.name = "dipole";
  s.polarisation = 2;
  s.position = {centre, centre, centre};
  s.waveform = WaveformKind::ricker;
  s.frequency = g.frequency;
  d.sources.push_back(s);
  d.probes.push_back({"probe", {centre - g.probe_offset * o.cell, centre, centre}, {Component::Ez}});
  return d;
}

CpmlReflection measure_cpml_reflection(const CpmlReflectionOptions& o) {
  if (o.interior < 2 * kCpmlMinInteriorCells)
    throw std::invalid_argument("measure_cpml_reflection: interior must be at least " +
                                std::to_string(2 * kCpmlMinInteriorCells) + " cells");
  const Geometry g = geometry(o);
  RunConfig single;
  single.engine = o.small_run ? o.small_run->engine : o.engine;
  single.precision_bits = o.small_run ? o.small_run->precision_bits : o.precision_bits;
  if (o.small_run && !o.small_run->devices.empty()) single.devices = {o.small_run->devices.front()};
  const auto trace = [&](bool reference) {
    const RunConfig& config = reference || !o.small_run ? single : *o.small_run;
    return run_model(build_model(cpml_reflection_deck(o, reference)), config).probes.probes.at(0).series.at(0);
  };
  const std::vector<double> small = trace(false), reference = trace(true);
  CpmlReflection r;
  for (std::size_t n = 0; n < small.size(); ++n) {
    r.max_difference = std::max(r.max_difference, std::abs(small[n] - reference[n]));
    r.max_reference = std::max(r.max_reference, std::abs(reference[n]));
  }
  r.db = 20 * std::log10(std::max(r.max_difference, 1e-300) / r.max_reference);
  r.steps = g.steps;
  r.small_cells = g.small;
  r.reference_cells = g.reference;
  r.probe_distance = g.probe_offset * o.cell;
  r.frequency = g.frequency;
  return r;
}

}  // namespace yeex
