// Energy conservation in a lossless closed box: with PEC walls and no loss the Yee scheme
// conserves exactly (up to rounding) the discrete energy
//   W^n = 1/2 sum_nodes dV [ eps |E^n|^2 + mu H^{n-1/2} . H^{n+1/2} ]
// (src/solver/field_stats.hpp; the adjoint identity of the discrete curls). Always float64: in
// float32 rounding alone moves W by ~1e-6 over 1000 steps.
#include <algorithm>
#include <cmath>
#include <string>

#include "physics/constants.hpp"
#include "src/validate/problems.hpp"

namespace yeex {

// A PEC box with a dielectric (eps_r 4) and a magnetic (mu_r 3) block, different cell sizes on
// the three axes, excited by three short dipoles (x in air, y in the glass, z in the ferrite)
// with a pulse so short (gaussian_derivative at c / (3 dx)) that it fills the spectrum up to the
// grid's cut-off, where a wrong coefficient or a stale halo would show first.
Deck closed_lossless_box(bool quick) {
  const int scale = quick ? 1 : 3;
  Deck d;
  d.title = "validate: closed lossless box";
  d.grid = {14 * scale, 12 * scale, 10 * scale};
  d.cell_size = {1e-3 / scale, 1.2e-3 / scale, 0.9e-3 / scale};
  d.materials.push_back({"glass", 4.0, 0.0, 1.0, false});
  d.materials.push_back({"ferrite", 1.0, 0.0, 3.0, false});
  d.geometry.push_back({ShapeKind::box, "glass", {2e-3, 2e-3, 2e-3}, {7e-3, 8e-3, 5e-3}});
  d.geometry.push_back({ShapeKind::box, "ferrite", {6e-3, 4e-3, 4e-3}, {11e-3, 9e-3, 8e-3}});
  const std::array<Vec3, 3> where{Vec3{11.8e-3, 2.6e-3, 2.1e-3}, Vec3{3.1e-3, 4.9e-3, 3.2e-3},
                                  Vec3{8.9e-3, 6.1e-3, 5.2e-3}};
  add_dipole_triplet(d, where, WaveformKind::gaussian_derivative, kSpeedOfLight / (3 * d.cell_size[0]));
  return d;
}

EnergyDrift energy_drift(Deck deck, RunConfig config, Index window) {
  // W is measured from the first multiple of `every` after the pulse (|W(t)| < 1e-12 of its peak
  // after 3/f) over `window` steps.
  const Index every = 50;
  const double dt = deck.dt();
  const Index pulse_steps = static_cast<Index>(std::ceil(3.0 / deck.sources.front().frequency / dt));
  const Index first = (pulse_steps / every + 1) * every;
  deck.steps = first + window + 1;
  const Model model = build_model(deck);
  config.precision_bits = 64;
  config.energy_every = every;
  const RunResult result = run_model(model, config);
  EnergyDrift drift;
  for (const EnergySample& e : result.energy) {
    if (e.step < first) continue;
    if (e.step == first) drift.initial = e.joules;
    drift.relative = std::max(drift.relative, std::abs(e.joules - drift.initial) / drift.initial);
    drift.steps = e.step - first;
  }
  return drift;
}

std::vector<CheckRow> validate_energy(const ValidationContext& context) {
  // The 1000 steps in the quick run, 10x longer in the full one.
  const Index window = context.quick ? 1000 : 10000;
  const EnergyDrift d = energy_drift(closed_lossless_box(context.quick), context.run, window);
  // 1e-9 (the figure) leaves 3-4 orders of magnitude over float64 rounding, which moves W
  // by ~1e-14 here; a wrong update coefficient, a stale halo plane, a source left on or a
  // conductivity of 1e-4 S/m in the glass (tests/unit/test_physics.cpp) moves it by more than 1e-6.
  CheckRow row{"relative drift of W over " + std::to_string(d.steps) + " steps (f64)",
               "",
               d.relative,
               0.0,
               d.relative,
               1e-9,
               "absolute",
               d.relative <= 1e-9 && d.initial > 0 && d.steps == window};
  return {row};
}

}  // namespace yeex
