// Reflection and transmission of the TE10 mode of a PEC guide at materials that fill its
// cross-section: the references of the dispersive-material checks of `yeex validate`.
//
// The TE10 mode (E along x, uniform in x, sin(pi y / Ly) across y) is the sum of two plane
// waves with k_y = +-pi/Ly, so along z it meets a material boundary as an s-polarised plane wave:
//   k_z^2 = w^2 mu0 eps0 eps_r(w) - (pi/Ly)^2,  r12 = (k1 - k2)/(k1 + k2),  t12 = 2 k1/(k1 + k2)
// (time dependence exp(j w t), waves exp(-j k_z z); the branch with Im k_z <= 0, Re k_z >= 0:
// decaying or outgoing along +z).
//
// The same on the Yee lattice, exactly. With E_x on the nodes k dz and eps_r a step between node
// K-1 and node K, each side's nodal field is A a^k + B a^-k (a = exp(-j k_z dz)), where k_z obeys
// the lattice relation
//   [2/dz sin(k_z dz/2)]^2 = Omega^2 eps_r(W)/c^2 - [2/dy sin(pi dy/(2 Ly))]^2,
//   Omega = 2/dt sin(w dt/2),  W = 2/dt tan(w dt/2)
// (a dispersive material acts at the mapped frequency W: physics/dispersion.hpp), and the two
// sides' forms agree on the nodes K-1 and K. That gives, with the waves referred to the plane
// (K - 1/2) dz halfway between the two nodes,
//   r12 = sin((k1 - k2) dz/2) / sin((k1 + k2) dz/2),  t12 = sin(k1 dz) / sin((k1 + k2) dz/2),
// which tend to the continuum coefficients as dz -> 0 (r12 to second order: k1 k2 dz^2 / 6).
// Both forms are for non-magnetic materials (mu_r = 1 on both sides), as the checks use.
// A slab is two such interfaces, so it has the continuum's multiple-reflection form with these
// coefficients.
#pragma once

#include <complex>

#include "physics/material.hpp"

namespace yeex {

using Complex = std::complex<double>;

// eps_r(w) of a material from its poles and conductivity, written here from the conventions of
// physics/material.hpp (not taken from physics/dispersion.cpp, so that the checks compare the
// scheme with an independent reference).
Complex analytic_permittivity(const Material& material, double omega);

// The continuum guide's wavenumber k_z at angular frequency w for a guide of width `width`.
Complex guide_wavenumber(const Material& material, double omega, double width);

// The lattice of a run: cells dy (across the guide) and dz (along it), time step dt, width Ly.
struct GuideLattice {
  double dy = 0, dz = 0, dt = 0, width = 0;
};
// The lattice's k_z (the top); for free space it is yee_wavenumber's.
Complex lattice_wavenumber(const Material& material, double omega, const GuideLattice& lattice);

// One interface's coefficients, the waves referred to the interface plane: r12, t12 for a wave
// from side 1, t21 for one from side 2 (r21 = -r12).
struct InterfaceCoefficients {
  Complex r12, t12, t21;
};
InterfaceCoefficients continuum_interface(Complex k1, Complex k2);
InterfaceCoefficients lattice_interface(Complex k1, Complex k2, double dz);

// Transmission through a slab of thickness L (wavenumber k2, `interface` its entry face) from one
// face to the other: t12 t21 exp(-j k2 L) / (1 - r21^2 exp(-2 j k2 L)). Against the same path
// without the slab it is that times exp(j k1 L).
Complex slab_transmission(const InterfaceCoefficients& interface, Complex k2, double L);

}  // namespace yeex
