// The numerical dispersion relation of the Yee scheme, the reference of the cavity and
// propagation checks:
//
//   [ sin(w dt / 2) / (c dt) ]^2 = sum_i [ sin(k_i d_i / 2) / d_i ]^2
//
// It is exact for the discrete scheme (every discrete plane wave / eigenmode obeys it), at any
// resolution; the continuum relation (w / c)^2 = |k|^2 is its limit d, dt -> 0.
#pragma once

#include <array>

namespace yeex {

// Angular frequency of the discrete wave with wave vector k (rad/m) on cells d (m), step dt.
double yee_omega(const std::array<double, 3>& k, const std::array<double, 3>& d, double dt, double c);

// Resonance (Hz) of mode (m, n, p) of a PEC box of lengths L = N_i d_i: k_i = m_i pi / L_i.
double yee_cavity_frequency(const std::array<int, 3>& mode, const std::array<double, 3>& length,
                            const std::array<double, 3>& d, double dt, double c);

// Wavenumber k_a (rad/m) along `axis` of the discrete wave of angular frequency w whose other two
// components are fixed (k[axis] is ignored); NaN below cut-off.
double yee_wavenumber(double omega, int axis, const std::array<double, 3>& k, const std::array<double, 3>& d, double dt,
                      double c);

// Group velocity dw/dk_a along `axis` at that wave (m/s).
double yee_group_velocity(double omega, int axis, const std::array<double, 3>& k, const std::array<double, 3>& d,
                          double dt, double c);

}  // namespace yeex
