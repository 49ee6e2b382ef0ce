// The CPML's grading (Roden & Gedney; kernels/cpml.hpp): its settings and the coefficients at a depth.
#pragma once

#include <array>
#include <optional>

#include "decomposition/grid.hpp"

namespace yeex {

// [boundary.cpml]: the convolutional PML of every face whose boundary is "cpml" (Roden & Gedney;
// kernels/cpml.hpp). Depth rho runs from 0 at the PML's inner edge to 1 at its outer (PEC) edge:
//   sigma = sigma_max rho^grading, kappa = 1 + (kappa_max - 1) rho^grading, alpha = alpha_max (1 - rho).
struct CpmlSettings {
  Index cells = 10;    // thickness of each CPML slab
  double grading = 3;  // polynomial order m of sigma and kappa
  // S/m across x, y, z slabs; unset: 0.8 (m + 1) / (eta0 d), d the axis' cell size
  std::optional<std::array<double, 3>> sigma_max;
  double kappa_max = 1;
  double alpha_max = 0.05;  // S/m
  // Defaults tuned with tests/unit/test_cpml.cpp (10 cells, probe 2 cells from the slab): m = 3,
  // kappa 1, alpha 0.05 gives -95.7 dB; m = 2: -79.5; m = 4: -96.4; kappa_max 5: -76 dB. A small
  // alpha costs nothing here and damps the low frequencies and late-time growth CPML is known for.
};

// b, c and 1/kappa - 1 of a CPML slab at depth rho (0 at the inner edge, 1 at the outer one), for a slab whose
// sigma at the outer edge is sigma_max (Roden & Gedney; kernels/cpml.hpp):
//   b = exp(-(sigma/kappa + alpha) dt/eps0),  c = sigma / (sigma kappa + kappa^2 alpha) (b - 1), c = 0 where sigma = 0.
struct CpmlCoefficients {
  double b, c, kappa_inverse_minus_one;
};
CpmlCoefficients cpml_coefficients(const CpmlSettings& settings, double sigma_max, double dt, double rho);

}  // namespace yeex
