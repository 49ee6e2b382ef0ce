#include "physics/cpml.hpp"

#include <algorithm>
#include <cmath>

#include "physics/constants.hpp"

namespace yeex {

CpmlCoefficients cpml_coefficients(const CpmlSettings& s, double sigma_max, double dt, double rho) {
  rho = std::clamp(rho, 0.0, 1.0);
  const double graded = std::pow(rho, s.grading);
  const double sigma = sigma_max * graded, kappa = 1 + (s.kappa_max - 1) * graded, alpha = s.alpha_max * (1 - rho);
  const double b = std::exp(-(sigma / kappa + alpha) * dt / kEps0);
  const double c = sigma > 0 ? sigma / (sigma * kappa + kappa * kappa * alpha) * (b - 1) : 0.0;
  return {b, c, 1 / kappa - 1};
}

}  // namespace yeex
