#include "physics/plane_wave.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace yeex {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = std::numbers::pi;

// Bisection of an increasing f on [low, high] with f(low) <= 0 <= f(high), to the last bit.
template <class F>
double bisect(F f, double low, double high) {
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle <= low || middle >= high) break;
    (f(middle) < 0 ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

// The axis u lies along (its other components zero), or -1.
int axis_along(const std::array<double, 3>& u) {
  int axis = -1, nonzero = 0;
  for (int d = 0; d < 3; ++d)
    if (u[d] != 0) axis = d, ++nonzero;
  return nonzero == 1 ? axis : -1;
}

}  // namespace

double yee_wavenumber_along(const std::array<double, 3>& u, double omega, const std::array<double, 3>& cell, double dt,
                            double speed) {
  const double s = std::sin(omega * dt / 2) / (speed * dt);
  // Each term grows with k up to k |u_d| d_d / 2 = pi / 2; beyond the first such k the grid has no wave.
  double k_max = std::numeric_limits<double>::infinity();
  for (int d = 0; d < 3; ++d)
    if (u[d] != 0) k_max = std::min(k_max, kPi / (std::abs(u[d]) * cell[d]));
  const auto f = [&](double k) {
    double sum = 0;
    for (int d = 0; d < 3; ++d) {
      const double term = std::sin(k * u[d] * cell[d] / 2) / cell[d];
      sum += term * term;
    }
    return sum - s * s;
  };
  if (!(f(k_max) >= 0)) return kNaN;
  return bisect(f, 0.0, k_max);
}

double line_wavenumber(double spacing, double omega, double dt, double speed) {
  const double x = spacing * std::sin(omega * dt / 2) / (speed * dt);
  return x <= 1 ? 2 * std::asin(x) / spacing : kNaN;
}

double matched_line_spacing(const std::array<double, 3>& u, double omega, const std::array<double, 3>& cell, double dt,
                            double speed) {
  if (const int axis = axis_along(u); axis >= 0) return cell[axis];  // the same stencil: exact at every frequency
  const double k = yee_wavenumber_along(u, omega, cell, dt, speed);
  if (!std::isfinite(k)) return kNaN;
  const double s = std::sin(omega * dt / 2) / (speed * dt);
  // sin(k D / 2) / D falls with D on (0, 2 pi / k); at D = v dt it is at least s (the 3D grid is
  // no faster than v), so the root lies in [v dt, 2 pi / k).
  const auto g = [&](double spacing) { return s - std::sin(k * spacing / 2) / spacing; };
  const double low = speed * dt, high = 2 * kPi / k;
  if (!(g(low) <= 0)) return low;
  return bisect(g, low, high);
}

std::vector<double> run_incident_line(const IncidentLine& line, const std::vector<double>& drive) {
  const std::int64_t width = line.width, nodes = line.width + line.absorber + 1;  // E nodes; the last is PEC
  const std::int64_t steps = static_cast<std::int64_t>(drive.size());
  std::vector<double> e(nodes, 0.0), h(nodes - 1, 0.0);  // h[m] at node m + 1/2
  // Graded matched loss (sigma* / mu = sigma / eps: no reflection at normal incidence in the
  // continuum), cubic, for a theoretical round trip of 1e-12; node x cells into the layer.
  const double eta = std::sqrt(line.mu / line.eps), depth = line.absorber * line.spacing;
  const double sigma_max = 4 * std::log(1e12) / (2 * eta * depth);
  const auto sigma = [&](double x) {
    const double into = std::max(0.0, x - static_cast<double>(width)) / line.absorber;
    return sigma_max * into * into * into;
  };
  std::vector<double> e_decay(nodes), e_curl(nodes), h_decay(nodes - 1), h_curl(nodes - 1);
  for (std::int64_t m = 0; m < nodes; ++m) {
    const double l = sigma(static_cast<double>(m)) * line.dt / (2 * line.eps);
    e_decay[m] = (1 - l) / (1 + l);
    e_curl[m] = line.dt / (line.eps * line.spacing) / (1 + l);
  }
  for (std::int64_t m = 0; m + 1 < nodes; ++m) {
    const double l = sigma(m + 0.5) * line.dt / (2 * line.eps);  // sigma* dt / (2 mu), the same number
    h_decay[m] = (1 - l) / (1 + l);
    h_curl[m] = line.dt / (line.mu * line.spacing) / (1 + l);
  }
  std::vector<double> table(static_cast<std::size_t>(steps * 2 * width));
  for (std::int64_t n = 0; n < steps; ++n) {
    e[0] = drive[n];
    double* row = table.data() + n * 2 * width;
    std::copy_n(e.begin(), width, row);
    // dh/dt = -(1/mu) de/ds, de/dt = -(1/eps) dh/ds: a wave travelling towards larger s.
    for (std::int64_t m = 0; m + 1 < nodes; ++m) h[m] = h_decay[m] * h[m] - h_curl[m] * (e[m + 1] - e[m]);
    std::copy_n(h.begin(), width, row + width);
    for (std::int64_t m = 1; m + 1 < nodes; ++m) e[m] = e_decay[m] * e[m] - e_curl[m] * (h[m] - h[m - 1]);
  }
  return table;
}

}  // namespace yeex
