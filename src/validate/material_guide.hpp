// The model of the dispersive-material checks: a PEC guide carrying the TE10 mode along z (as in
// propagation_problem.cpp: a sheet of x dipoles weighted sin(pi j / Ny) excites that mode alone),
// optionally with a material filling its cross-section between two planes. Each check runs it
// with and without the material and divides the spectra at a probe (fresnel.hpp has the
// references).
//
// Wall echoes are kept out by gating: every record ends before the first wave that is not part of
// the measured one (an echo from the z = 0 wall, from the far wall, or the source's backward wave)
// could reach its probe at speed c; its last quarter after the pulse's arrival is tapered (cos^2),
// so the slow content near the cut-off that the gate cuts leaks little into the measured band.
#pragma once

#include <complex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/validate/fresnel.hpp"
#include "src/validate/validation.hpp"

namespace yeex {

struct MaterialGuide {
  Index ny = 0, nz = 0;   // cells; nx = 1 (the mode is uniform in x)
  double dy = 0, dz = 0;  // m; dx = dy. Coarse across (the mode's sin is exact on any lattice), fine along z
  Index source_k = 0;     // the sheet's plane
  double frequency = 0;   // the Ricker's (Hz)
  Index first_k = 0;      // the material holds the E nodes first_k .. last_k - 1 (its faces halfway
  Index last_k = 0;       //   between nodes, at (first_k - 1/2) dz and (last_k - 1/2) dz); last_k > nz: to the far wall
  std::vector<Index> probes;  // planes of the Ex probes (at mid-width)
  double width() const { return double(ny) * dy; }
  GuideLattice lattice(double dt) const { return {dy, dz, dt, width()}; }
};

// The guide's cross-section, cells and pulse (the positions along z are left to each check).
// The guide is wide (0.96 m, its cut-off at 0.16 GHz) so that the band (2-22 GHz) lies far above
// the cut-off: a pulse rings at the cut-off frequency for long after it has passed, and the
// gate's cut of that ringing would leak into the band's low end (at 2 GHz: 1e-2 with the cut-off
// at 1.25 GHz, 6e-5 at 0.16 GHz). Across, the mode's sin(pi j / Ny) is exact on any lattice, so
// 8 cells (16, full) suffice; along z the cells (0.125 mm, 0.0625 mm full) resolve the band's
// top (22 GHz) by 60 (120) cells per wavelength in the densest material (eps_r 2 there), where
// the lattice's interface coefficients come within 0.15 % (0.04 %) of the continuum's.
MaterialGuide te10_guide(bool quick);

// The deck of the guide, with `material` (nullopt: the empty guide) over [first_k, last_k),
// running `steps` steps.
Deck material_guide_deck(const MaterialGuide& guide, const std::optional<Material>& material, Index steps);

// Probe `p`'s Ex record.
const std::vector<double>& probe_record(const RunResult& result, int p);
// The first `end` samples of a record, the part after sample `arrival` tapered over its last
// quarter.
std::vector<double> gated_record(std::vector<double> record, Index end, Index arrival);

// Throws std::logic_error when the deck's pole checks (physics/dispersion.hpp, pole_problem)
// would refuse one of the material's poles at time step dt: a check's own parameters are wrong.
void require_resolved_poles(const Material& material, double dt);

// The step count within which a wave at speed c covers `cells` cells along z (rounded down): the
// sample index before which nothing from that far can arrive.
Index steps_for_cells(const MaterialGuide& guide, double dt, double cells);

// The frequencies (Hz) where the Ricker's spectrum, f^2 exp(-f^2 / f0^2), is at least `fraction`
// of its peak (at f0).
std::pair<double, double> ricker_band(double f0, double fraction);

// The largest relative errors over a band of a measured complex coefficient against a reference.
struct BandError {
  double magnitude = 0;                     // max | |measured| - |reference| | / |reference|
  double complex = 0;                       // max | measured - reference | / |reference|
  double at_magnitude = 0, at_complex = 0;  // where (Hz)
  void add(double frequency, std::complex<double> measured, std::complex<double> reference);
};

// A row for the largest error over the band (measured = that error, reference 0).
CheckRow band_row(const std::string& quantity, double error, double at, double tolerance);

// The rows of a coefficient `symbol` ("r", "T") measured over [f_low, f_high]: its magnitude at the
// band's centre against the continuum's, then its largest errors over the band against the
// continuum coefficient (magnitude, complex; the 1 %) and against the lattice's own
// (`lattice_tolerance`); `reference` names the analytic coefficient ("Fresnel coefficient").
std::vector<CheckRow> coefficient_rows(const std::string& symbol, const std::string& reference, double f_low,
                                       double f_high, std::complex<double> measured_centre,
                                       std::complex<double> continuum_centre, const BandError& continuum,
                                       const BandError& lattice, double lattice_tolerance);

}  // namespace yeex
