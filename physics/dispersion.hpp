// The update of a dispersive material: the poles' polarisation currents by auxiliary differential
// equations, and the Peplinski soil model that yields a Debye pole.
//
// Ampere's law at n+1/2 with every term centred (trapezoidal rule), per pole p a polarisation
// current J_p (Lorentz: and its polarisation P_p, dP/dt = J):
//   eps0 eps_inf (E^{n+1} - E^n)/dt + sigma (E^{n+1} + E^n)/2 + sum_p (J_p^{n+1} + J_p^n)/2 = curl H
//   debye    tau dJ/dt + J = eps0 delta_eps dE/dt
//   drude    dJ/dt + gamma J = eps0 omega^2 E
//   lorentz  dJ/dt + gamma J + omega^2 P = eps0 delta_eps omega^2 E
// Each is second-order accurate and stable for any pole the time step resolves; its response is
// the continuous chi(w) at the frequency (2/dt) tan(w dt/2). The pole's state x (J, or J and P)
// then obeys x^{n+1} = A x^n + d E^n + f E^{n+1}, and E^{n+1} = C1 E^n + C2 (curl H - sum w.x^n).
//
// The engines never keep E^n: with y = x + g E, g = A^-1 d, the same scheme reads
//   E^{n+1} = e_decay E^n + e_curl curl H + sum u.y^n     (e_decay = C1 + C2 sum w.g, u = -C2 w)
//   y^{n+1} = A y^n + h E^{n+1}                            (h = f + g)
// so the main sweep runs with e_decay and e_curl as for any material, and one pass after it adds
// the u.y terms and advances y from the node's new E alone (kernels/dispersion.hpp).
#pragma once

#include <complex>
#include <vector>

#include "physics/material.hpp"

namespace yeex {

// One pole's part of the update in the y form (the top): states 1 (debye, drude: y = J + g E) or
// 2 (lorentz: J and P); entries beyond `states` are zero.
struct PoleUpdate {
  int states = 1;
  double a[2][2] = {};  // A
  double h[2] = {};
  double u[2] = {};
};

struct DispersiveUpdate {
  double e_decay = 0, e_curl = 0;  // of the main sweep
  std::vector<PoleUpdate> poles;   // in the material's order
};

// The update of a material with poles at time step dt (a material without poles: no poles, and
// the coefficients of update_coefficients).
DispersiveUpdate dispersive_update(const Material& material, double dt);

// The discrete pole of the state's own dynamics, the eigenvalue of A of largest magnitude. The
// scheme's y form divides by det A; a pole the time step does not resolve has an eigenvalue
// near zero or below (dispersion_problem explains the deck's refusal).
double pole_memory(const Pole& pole, double dt);

// What stops a pole at this time step, or "" when it is resolved: debye tau, drude and lorentz
// gamma and omega must each be resolved by dt (limits in dispersion.cpp, docs/decks.md).
std::string pole_problem(const Pole& pole, double dt);

// chi(w) of one pole and the relative permittivity eps_r(w) of a material (with its conductivity:
// - j sigma / (w eps0)), time dependence exp(j w t), w in rad/s > 0.
std::complex<double> susceptibility(const Pole& pole, double w);
std::complex<double> relative_permittivity(const Material& material, double w);

// The Peplinski (1995) semi-empirical model of a soil, as gprMax applies it: sand and clay
// fractions, bulk and sand-particle densities (g/cm^3) and volumetric water fraction give a one-
// pole Debye material (water's relaxation time) with a conductivity.
struct PeplinskiSoil {
  double sand = 0.5, clay = 0.5;  // fractions of the solid
  double bulk_density = 2.0;      // g/cm^3
  double sand_density = 2.66;     // g/cm^3, of the sand particles
  double water = 0.1;             // volumetric water fraction
};
// eps_r (eps_inf), sigma and one Debye pole; `name` is kept.
Material peplinski_material(const PeplinskiSoil& soil, const std::string& name);

}  // namespace yeex
