// The validation problems (one file each): rows of measured against reference values.
#pragma once

#include <array>
#include <vector>

#include "src/validate/validation.hpp"

namespace yeex {

// Three short dipoles, x, y and z polarised, at where[0], where[1], where[2] (named tx_x, tx_y,
// tx_z): between them they couple to every mode family of a box.
void add_dipole_triplet(Deck& deck, const std::array<Vec3, 3>& where, WaveformKind waveform, double frequency);

// PEC rectangular cavity: the lowest resonances against the discrete Yee dispersion relation.
std::vector<CheckRow> validate_cavity(const ValidationContext& context);
// Each problem's deck that runs with the user's split (checked before any problem runs).
Deck cavity_deck(bool quick);
Deck propagation_deck(bool quick);
Deck dipole_deck(bool quick);
Deck cpml_problem_deck(bool quick);  // the small CPML box (the reference runs as one domain)
// Lossless closed box, float64: drift of the discrete energy the Yee scheme conserves.
std::vector<CheckRow> validate_energy(const ValidationContext& context);
// Its deck: a PEC box with a dielectric and a magnetic block (also used by the physics tests).
Deck closed_lossless_box(bool quick);
// The largest relative change of W over `window` steps after the deck's (first source's) pulse,
// run in float64 with `config`.
struct EnergyDrift {
  double relative = 0;  // max |W^n - W^first| / W^first
  double initial = 0;   // W^first (J)
  Index steps = 0;      // steps measured
};
EnergyDrift energy_drift(Deck deck, RunConfig config, Index window);
// TE10 pulse in a PEC guide: phase and group velocity against the discrete dispersion relation.
std::vector<CheckRow> validate_propagation(const ValidationContext& context);
// CPML reflection against a large-domain reference: at most -60 dB with 10 cells.
std::vector<CheckRow> validate_cpml(const ValidationContext& context);
// A plane wave's total-field/scattered-field leakage, normal and oblique incidence.
std::vector<CheckRow> validate_tfsf(const ValidationContext& context);
Deck tfsf_problem_deck(bool quick);
// Hertzian dipole in free space: Ez against the analytic near + far field.
std::vector<CheckRow> validate_dipole(const ValidationContext& context);
// TE10 pulse on a Debye half-space: the reflection coefficient against the complex Fresnel one.
std::vector<CheckRow> validate_debye_reflection(const ValidationContext& context);
Deck debye_reflection_deck(bool quick);
// TE10 pulse through a Drude / a Lorentz slab: the transmission against the analytic slab's.
std::vector<CheckRow> validate_drude_slab(const ValidationContext& context);
std::vector<CheckRow> validate_lorentz_slab(const ValidationContext& context);
Deck drude_slab_deck(bool quick);
Deck lorentz_slab_deck(bool quick);
// A dielectric sphere under a TF/SF plane wave: the scattered near field against the Mie series.
std::vector<CheckRow> validate_mie_sphere(const ValidationContext& context);
Deck mie_sphere_deck(bool quick);
// The three checks' materials, and the checks run with another material in the model than the
// references assume: how far a wrong material, or a wrong scheme, moves the rows (tests).
Material debye_reflection_material();
Material drude_slab_material();
Material lorentz_slab_material();
std::vector<CheckRow> debye_reflection_rows(const ValidationContext& context, const Material& modelled);
std::vector<CheckRow> slab_transmission_rows(const ValidationContext& context, const Material& material,
                                             const Material& modelled);
// Ez (V/m) at distance r on the equatorial plane of a z dipole of length dl driven by
// gaussian_derivative at `frequency` (A), time t after the start.
double dipole_ez_equator(double frequency, double dl, double r, double t);

}  // namespace yeex
