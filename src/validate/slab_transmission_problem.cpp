// Transmission through a dispersive slab: the TE10 pulse of a PEC guide crosses a slab that fills
// the guide's cross-section (a Drude metal above its plasma frequency, or a Lorentz medium with its
// resonance in the band); the transmission coefficient at a probe beyond it against the analytic
// slab transmission across the pulse's band.
//
// Measurement: the same guide is run empty (the reference); the ratio of the two runs' spectra at
// the probe, each record gated before any echo (material_guide.hpp), is the slab's transmission
// over the same path through the empty guide.
//
// References (fresnel.hpp): the slab's multiple reflections, t12 t21 exp(-j k2 d) /
// (1 - r21^2 exp(-2 j k2 d)), times exp(j k1 d) for the empty guide's path over the thickness d,
// that factor with the lattice's free-guide wavenumber (yee_wavenumber's, which the empty guide
// obeys exactly), the faces halfway between E nodes;
// - with the continuum coefficients and wavenumbers, eps_r(w) at the physical frequency: grid and
//   scheme together against the physics;
// - with the lattice's, eps_r at the mapped frequency W: the scheme against its own exact answer.
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <string>

#include "physics/constants.hpp"
#include "src/validate/material_guide.hpp"
#include "src/validate/problems.hpp"
#include "src/validate/spectrum.hpp"

namespace yeex {
namespace {

using namespace std::complex_literals;
constexpr double kTwoPi = 2 * std::numbers::pi;

}  // namespace

// eps_r about 2 - (6 GHz / f)^2: negative below 4.2 GHz, where the slab passes the pulse by
// tunnelling (64 % at 2 GHz), then rising towards 2; so the band holds both regimes.
Material drude_slab_material() {
  Material m;
  m.name = "drude";
  m.eps_r = 2.0;
  m.poles.push_back({.kind = PoleKind::drude, .omega = kTwoPi * 6e9, .gamma = kTwoPi * 2e9});
  return m;
}

// A resonance at 10 GHz, the middle of the band, damped enough that the slab still passes 28 % of
// the pulse there and that its ringing dies within the gate: eps_r 4 below it, 2 above, eps'' up
// to 4 at it.
Material lorentz_slab_material() {
  Material m;
  m.name = "lorentz";
  m.eps_r = 2.0;
  m.poles.push_back({.kind = PoleKind::lorentz, .delta_eps = 2.0, .omega = kTwoPi * 10e9, .gamma = kTwoPi * 5e9});
  return m;
}

namespace {

// Lengths in cells of dz: a 5 mm slab (40 cells, quick) between the source and the probe, each
// 40 cells from it; the source as far from the z = 0 wall, and the probe from the far wall, as the
// gate needs (every echo's extra path, twice that distance, exceeds the pulse and its tail: the
// slab's own ringing makes it longer than the reflection check's).
MaterialGuide slab_guide(bool quick) {
  const Index scale = quick ? 1 : 2;
  MaterialGuide g = te10_guide(quick);
  g.source_k = 1200 * scale;
  g.first_k = g.source_k + 40 * scale;
  g.last_k = g.first_k + 40 * scale;
  g.probes = {g.last_k + 40 * scale};
  g.nz = g.probes[0] + 1200 * scale;
  return g;
}

// The first sample of the pulse at the probe, and the sample before the first echo could arrive.
std::pair<Index, Index> timeline(const MaterialGuide& g, double dt) {
  const double s = double(g.source_k), p = double(g.probes[0]);
  return {steps_for_cells(g, dt, p - s), steps_for_cells(g, dt, p - s + 2 * std::min(s, double(g.nz) - p))};
}

Deck slab_deck(bool quick, const Material& material) {
  const MaterialGuide g = slab_guide(quick);
  const double dt = material_guide_deck(g, std::nullopt, 1).dt();
  return material_guide_deck(g, material, timeline(g, dt).second + 1);
}

}  // namespace

std::vector<CheckRow> slab_transmission_rows(const ValidationContext& context, const Material& material,
                                             const Material& modelled) {
  const MaterialGuide g = slab_guide(context.quick);
  const Material vacuum;
  Deck with = slab_deck(context.quick, modelled);
  const double dt = with.dt();
  require_resolved_poles(modelled, dt);
  Deck without = with;
  without.materials.clear(), without.geometry.clear();
  const RunResult reference = run_model(build_model(without), context.run);
  const RunResult slab = run_model(build_model(with), context.run);

  const auto [arrival, end] = timeline(g, dt);
  const std::vector<double> incident = gated_record(probe_record(reference, 0), end, arrival);
  const std::vector<double> transmitted = gated_record(probe_record(slab, 0), end, arrival);

  const GuideLattice lattice = g.lattice(dt);
  const double thickness = double(g.last_k - g.first_k) * g.dz;
  const auto [f_low, f_high] = ricker_band(g.frequency, 0.1);
  BandError continuum, scheme;
  std::complex<double> measured_centre, continuum_centre;
  const int samples = 200;
  for (int i = 0; i <= samples; ++i) {
    const double f = f_low + (f_high - f_low) * i / samples, w = kTwoPi * f;
    const std::complex<double> measured = plain_dft(transmitted, dt, f) / plain_dft(incident, dt, f);
    const Complex k1 = lattice_wavenumber(vacuum, w, lattice), k2 = lattice_wavenumber(material, w, lattice);
    const Complex c1 = guide_wavenumber(vacuum, w, g.width()), c2 = guide_wavenumber(material, w, g.width());
    const Complex free_path = std::exp(1.0i * k1 * thickness);
    const Complex exact = slab_transmission(continuum_interface(c1, c2), c2, thickness) * free_path;
    continuum.add(f, measured, exact);
    scheme.add(f, measured, slab_transmission(lattice_interface(k1, k2, g.dz), k2, thickness) * free_path);
    if (i == samples / 2) measured_centre = measured, continuum_centre = exact;
  }
  // Tolerances: as for the Debye reflection (debye_reflection_problem.cpp); the measurement is good
  // to 1e-4 here too.
  return coefficient_rows("T", "slab transmission", f_low, f_high, measured_centre, continuum_centre, continuum, scheme,
                          3e-4);
}

Deck drude_slab_deck(bool quick) { return slab_deck(quick, drude_slab_material()); }
Deck lorentz_slab_deck(bool quick) { return slab_deck(quick, lorentz_slab_material()); }

std::vector<CheckRow> validate_drude_slab(const ValidationContext& context) {
  return slab_transmission_rows(context, drude_slab_material(), drude_slab_material());
}
std::vector<CheckRow> validate_lorentz_slab(const ValidationContext& context) {
  return slab_transmission_rows(context, lorentz_slab_material(), lorentz_slab_material());
}

}  // namespace yeex
