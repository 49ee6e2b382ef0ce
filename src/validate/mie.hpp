// The Mie series: a plane wave scattered by a homogeneous sphere, the reference of the sphere
// check of `yeex validate`.
//
// Time dependence exp(j w t) as in the rest of yeex (a lossy sphere has Im m < 0). The series is
// summed as in Bohren & Huffman (1983, ch. 4; their exp(-i w t) convention, whose phasors are the
// complex conjugates of these): Riccati-Bessel functions psi_n(x) = x j_n(x) and
// xi_n(x) = x h_n(x) by upward recurrence (x real), the logarithmic derivative D_n(m x) of
// psi_n(m x) by downward recurrence (stable for complex m x), and
//   a_n = [(D_n/m + n/x) psi_n - psi_{n-1}] / [(D_n/m + n/x) xi_n - xi_{n-1}]
//   b_n = [(m D_n + n/x) psi_n - psi_{n-1}] / [(m D_n + n/x) xi_n - xi_{n-1}]
// with x = k a (k in the surrounding medium) and m the sphere's refractive index relative to it,
// summed to n = x + 4 x^(1/3) + 2 terms (Wiscombe 1980), more for fields near the sphere.
#pragma once

#include <array>
#include <complex>
#include <vector>

namespace yeex {

struct MieCoefficients {
  std::vector<std::complex<double>> a, b;  // a_n, b_n for n = 1 .. size(), at index n - 1
};

// The coefficients of a sphere of relative index m (exp(j w t): Im m <= 0 for a lossy one) and
// size parameter x, to `terms` terms (0: Wiscombe's count).
MieCoefficients mie_coefficients(std::complex<double> m, double x, int terms = 0);

// Efficiencies: cross-sections over the geometric one, pi a^2.
struct MieEfficiencies {
  double extinction = 0, scattering = 0, backscatter = 0;
  double absorption() const { return extinction - scattering; }
};
MieEfficiencies mie_efficiencies(std::complex<double> m, double x);

// The scattered electric field (complex, Cartesian x y z, exp(j w t)) at `point` (m, from the
// sphere's centre, outside the sphere) of a sphere of radius a and relative index m under the
// incident plane wave E = x_hat exp(-j k z) (amplitude 1, travelling along +z), k the wavenumber
// of the surrounding medium (rad/m).
std::array<std::complex<double>, 3> mie_scattered_field(std::complex<double> m, double k, double radius,
                                                        const std::array<double, 3>& point);

// The field inside the sphere (total, complex, Cartesian) at `point` (0 < |point| < radius).
std::array<std::complex<double>, 3> mie_internal_field(std::complex<double> m, double k, double radius,
                                                       const std::array<double, 3>& point);

}  // namespace yeex
