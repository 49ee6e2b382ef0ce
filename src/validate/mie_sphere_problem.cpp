// Scattering from a dielectric sphere: a plane wave ([[plane_wave]], total-field/scattered-field)
// along z, E along x, meets a sphere of eps_r 4 at the centre of a box closed by CPML; probes in
// the scattered-field region, just outside the total-field box, record the scattered field alone,
// against the Mie series (mie.hpp) at the band's centre.
//
// Measurement: a second run without the sphere records the incident Ex at the sphere's centre;
// the ratio of the spectra (scattered Ex at a probe over incident Ex at the centre) is the
// scattered field per unit incident field, which the Mie series gives for the incident wave
// x_hat exp(-j k z) with z from the centre. Both records run until the fields have left the box
// (CPML), so the spectra are complete. The measured incident field carries the grid's own delay
// to the centre; the scattered wave's few cells to the probes add a phase error of about
// (k d)^2 / 24 k r, 5e-4 rad here.
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <string>

#include "physics/constants.hpp"
#include "src/validate/mie.hpp"
#include "src/validate/problems.hpp"
#include "src/validate/spectrum.hpp"

namespace yeex {
namespace {

constexpr double kSphereEps = 4.0;

// Cells: the grid's side, the sphere's radius, the total-field box's half side and the probes'
// distance from the centre (all in cells), the cell, and the Ricker's frequency (the band's
// centre, where x = k a is 1: the near field depends on the sphere's size, not just its volume).
struct SphereModel {
  Index cells, radius, box, probe;
  double cell, frequency;
  double centre() const { return double(cells / 2) * cell; }
};

// The geometry in mm, a 64 mm box: the sphere's radius 12, the total-field box's half side 16, the
// probes 18 from the centre. The sphere is staircased (each E component takes the material its own
// node lies in), which leaves an error that falls with the cell, not smoothly: at the back-scatter
// probe, where it is largest, 1.9 % with 1 mm cells, 1.0 % with 2/3 mm (the quick size), 0.9 %
// with 1/2 mm; the full size takes 1/3 mm.
SphereModel sphere_model(bool quick) {
  const double f = kSpeedOfLight / (2 * std::numbers::pi * 12e-3);  // k a = 1 at a = 12 mm
  const Index per_mm_2 = quick ? 3 : 6;                             // cells per 2 mm
  return {32 * per_mm_2, 6 * per_mm_2, 8 * per_mm_2, 9 * per_mm_2, 2e-3 / double(per_mm_2), f};
}

// Probes: back-scatter (-z), side (+y, the H plane) and forward (+z), each `probe` cells from the
// centre, outside the total-field box.
const char* const kProbeNames[3] = {"back", "side", "forward"};
std::array<Index, 3> probe_offset(const SphereModel& s, int p) {
  switch (p) {
    case 0: return {0, 0, -s.probe};
    case 1: return {0, s.probe, 0};
    default: return {0, 0, s.probe};
  }
}

Deck sphere_deck(bool quick, bool with_sphere) {
  const SphereModel s = sphere_model(quick);
  Deck d;
  d.title = with_sphere ? "validate: dielectric sphere under a plane wave" : "validate: plane wave, no sphere";
  d.grid = {s.cells, s.cells, s.cells};
  d.cell_size = {s.cell, s.cell, s.cell};
  d.boundary.fill(BoundaryKind::cpml);
  const double c = s.centre();
  if (with_sphere) {
    d.materials.push_back({"dielectric", kSphereEps, 0.0, 1.0, false});
    GeometryObject sphere;
    sphere.shape = ShapeKind::sphere;
    sphere.material = "dielectric";
    sphere.centre = {c, c, c};
    sphere.radius = double(s.radius) * s.cell;
    d.geometry.push_back(sphere);
  }
  PlaneWave w;
  w.name = "incident";
  w.direction = {0, 0, 1};
  w.polarisation = {1, 0, 0};
  w.waveform = WaveformKind::ricker;
  w.frequency = s.frequency;
  w.amplitude = 1.0;
  const double half = double(s.box) * s.cell;
  w.lower = {c - half, c - half, c - half};
  w.upper = {c + half, c + half, c + half};
  d.plane_waves.push_back(w);
  // The pulse (2 sqrt 2 / f long) crosses the box; the sphere rings for a few periods more.
  const double crossing = 2 * half / kSpeedOfLight;
  d.steps =
      static_cast<Index>(std::ceil((2 * std::numbers::sqrt2 / s.frequency + crossing + 6 / s.frequency) / d.dt()));
  if (with_sphere) {
    for (int p = 0; p < 3; ++p) {
      const std::array<Index, 3> o = probe_offset(s, p);
      d.probes.push_back({kProbeNames[p], {c + o[0] * s.cell, c + o[1] * s.cell, c + o[2] * s.cell}, {Component::Ex}});
    }
  } else {
    d.probes.push_back({"centre", {c, c, c}, {Component::Ex}});
  }
  return d;
}

}  // namespace

Deck mie_sphere_deck(bool quick) { return sphere_deck(quick, true); }

std::vector<CheckRow> validate_mie_sphere(const ValidationContext& context) {
  const SphereModel s = sphere_model(context.quick);
  const Deck with = sphere_deck(context.quick, true);
  const RunResult scattered = run_model(build_model(with), context.run);
  const RunResult incident = run_model(build_model(sphere_deck(context.quick, false)), context.run);
  const double dt = with.dt(), f = s.frequency, k = 2 * std::numbers::pi * f / kSpeedOfLight;
  const std::complex<double> reference = plain_dft(incident.probes.probes[0].series[0], dt, f);
  // Tolerance: the 2 % at the band's centre.
  const double tolerance = 0.02;
  std::vector<CheckRow> rows;
  for (int p = 0; p < 3; ++p) {
    const std::complex<double> measured = plain_dft(scattered.probes.probes[p].series[0], dt, f) / reference;
    // Ex of node (i, j, k) lies half a cell along x from the node.
    const std::array<Index, 3> o = probe_offset(s, p);
    const std::array<double, 3> where{(o[0] + 0.5) * s.cell, o[1] * s.cell, o[2] * s.cell};
    const std::complex<double> mie = mie_scattered_field(std::sqrt(kSphereEps), k, double(s.radius) * s.cell, where)[0];
    char label[96];
    std::snprintf(label, sizeof label, "scattered Ex, %s, %g mm from the centre, at %.2f GHz", kProbeNames[p],
                  double(s.probe) * s.cell * 1e3, f / 1e9);
    rows.push_back(relative_row(std::string("|") + label + "|", "", std::abs(measured), std::abs(mie), tolerance));
    // The complex field: its phase shown, the error |measured - Mie| / |Mie|.
    const double error = std::abs(measured - mie) / std::abs(mie), degrees = 180 / std::numbers::pi;
    rows.push_back({std::string(label) + ", phase", "deg", std::arg(measured) * degrees, std::arg(mie) * degrees, error,
                    tolerance, "relative (complex)", error <= tolerance});
  }
  return rows;
}

}  // namespace yeex
