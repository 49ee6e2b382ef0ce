#include "src/validate/yee_dispersion.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace yeex {
namespace {

double spatial_term(double k, double d) {
  const double s = std::sin(k * d / 2) / d;
  return s * s;
}

}  // namespace

double yee_omega(const std::array<double, 3>& k, const std::array<double, 3>& d, double dt, double c) {
  double sum = 0;
  for (int a = 0; a < 3; ++a) sum += spatial_term(k[a], d[a]);
  return 2 / dt * std::asin(c * dt * std::sqrt(sum));
}

double yee_cavity_frequency(const std::array<int, 3>& mode, const std::array<double, 3>& length,
                            const std::array<double, 3>& d, double dt, double c) {
  std::array<double, 3> k{};
  for (int a = 0; a < 3; ++a) k[a] = mode[a] * std::numbers::pi / length[a];
  return yee_omega(k, d, dt, c) / (2 * std::numbers::pi);
}

double yee_wavenumber(double omega, int axis, const std::array<double, 3>& k, const std::array<double, 3>& d, double dt,
                      double c) {
  const double temporal = std::sin(omega * dt / 2) / (c * dt);
  double rest = temporal * temporal;
  for (int a = 0; a < 3; ++a)
    if (a != axis) rest -= spatial_term(k[a], d[a]);
  const double s = std::sqrt(rest) * d[axis];
  if (!(rest > 0) || s > 1) return std::numeric_limits<double>::quiet_NaN();
  return 2 / d[axis] * std::asin(s);
}

// Differentiating both sides: sin(w dt) / (2 c^2 dt) dw = sin(k d) / (2 d) dk.
double yee_group_velocity(double omega, int axis, const std::array<double, 3>& k, const std::array<double, 3>& d,
                          double dt, double c) {
  const double ka = yee_wavenumber(omega, axis, k, d, dt, c);
  return c * c * dt * std::sin(ka * d[axis]) / (d[axis] * std::sin(omega * dt));
}

}  // namespace yeex
