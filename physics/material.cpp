#include "physics/material.hpp"

#include "physics/constants.hpp"
#include "physics/dispersion.hpp"

namespace yeex {

UpdateCoefficients update_coefficients(const Material& material, double dt) {
  if (material.dispersive()) {
    const DispersiveUpdate d = dispersive_update(material, dt);
    return {.e_decay = d.e_decay, .e_curl = d.e_curl, .h_curl = dt / (material.mu_r * kMu0)};
  }
  const double eps = material.eps_r * kEps0, loss = material.sigma * dt / (2 * eps);
  return {.e_decay = (1 - loss) / (1 + loss), .e_curl = (dt / eps) / (1 + loss), .h_curl = dt / (material.mu_r * kMu0)};
}

double source_coefficient(double amplitude, int polarisation, const Material& material, double dt,
                          const std::array<double, 3>& cell_size) {
  const double volume = cell_size[0] * cell_size[1] * cell_size[2];
  return update_coefficients(material, dt).e_curl * amplitude * cell_size[polarisation] / volume;
}

}  // namespace yeex
