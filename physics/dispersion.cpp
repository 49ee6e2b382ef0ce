#include "physics/dispersion.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "physics/constants.hpp"

namespace yeex {
namespace {

// The smallest discrete memory of a pole (pole_memory) the engines accept: the y form divides by
// it (g = A^-1 d), so rounding grows by about its inverse. A debye pole reaches it at
// tau = 0.61 dt; a relaxation faster than that is not resolved anyway.
constexpr double kMinMemory = 0.1;
// The largest omega dt of a lorentz resonance: the scheme's frequency map (2/dt) tan(w dt/2) puts
// it 9 % off at w dt = 1.
constexpr double kMaxOmegaDt = 1.0;
// The largest gamma dt of a drude pole, where its memory (2 - gamma dt)/(2 + gamma dt) reaches
// kMinMemory.
constexpr double kMaxDampingDt = 2 * (1 - kMinMemory) / (1 + kMinMemory);

// A pole's state equation x^{n+1} = A x^n + d E^n + f E^{n+1}, its weight w in the E update
// (E^{n+1} = C1 E^n + C2 (curl H - sum w.x^n)) and its share of Ampere's E terms: beta_new / 2
// multiplies E^{n+1}, beta_old / 2 E^n (physics/dispersion.hpp, the top).
struct PoleScheme {
  int states = 1;
  double A[2][2] = {}, d[2] = {}, f[2] = {}, w[2] = {};
  double beta_new = 0, beta_old = 0;
};

PoleScheme scheme(const Pole& p, double dt) {
  PoleScheme s;
  switch (p.kind) {
    case PoleKind::debye: {
      // tau (J^{n+1} - J^n)/dt + (J^{n+1} + J^n)/2 = eps0 delta_eps (E^{n+1} - E^n)/dt
      const double k = (2 * p.tau - dt) / (2 * p.tau + dt), beta = 2 * kEps0 * p.delta_eps / (2 * p.tau + dt);
      s.A[0][0] = k, s.d[0] = -beta, s.f[0] = beta, s.w[0] = (1 + k) / 2;
      s.beta_new = beta, s.beta_old = -beta;
      break;
    }
    case PoleKind::drude: {
      // (J^{n+1} - J^n)/dt + gamma (J^{n+1} + J^n)/2 = eps0 omega^2 (E^{n+1} + E^n)/2
      const double k = (2 - p.gamma * dt) / (2 + p.gamma * dt);
      const double beta = kEps0 * p.omega * p.omega * dt / (2 + p.gamma * dt);
      s.A[0][0] = k, s.d[0] = beta, s.f[0] = beta, s.w[0] = (1 + k) / 2;
      s.beta_new = s.beta_old = beta;
      break;
    }
    case PoleKind::lorentz: {
      // dJ/dt + gamma J + omega^2 P = eps0 delta_eps omega^2 E and dP/dt = J, both trapezoidal:
      //   J^{n+1} = k J^n - q P^n + beta (E^{n+1} + E^n),  P^{n+1} = P^n + dt (J^{n+1} + J^n)/2
      const double w2 = p.omega * p.omega;
      const double D = 1 + p.gamma * dt / 2 + w2 * dt * dt / 4;
      const double k = (1 - p.gamma * dt / 2 - w2 * dt * dt / 4) / D, q = w2 * dt / D;
      const double beta = kEps0 * p.delta_eps * w2 * dt / (2 * D);
      s.states = 2;
      s.A[0][0] = k, s.A[0][1] = -q;
      s.A[1][0] = dt * (1 + k) / 2, s.A[1][1] = 1 - q * dt / 2;
      s.d[0] = s.f[0] = beta, s.d[1] = s.f[1] = dt * beta / 2;
      s.w[0] = (1 + k) / 2, s.w[1] = -q / 2;
      s.beta_new = s.beta_old = beta;
      break;
    }
  }
  return s;
}

}  // namespace

double pole_memory(const Pole& pole, double dt) {
  const PoleScheme s = scheme(pole, dt);
  if (s.states == 1) return s.A[0][0];
  return s.A[0][0] * s.A[1][1] - s.A[0][1] * s.A[1][0];  // det A: the product of the two eigenvalues
}

std::string pole_problem(const Pole& pole, double dt) {
  const auto number = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return std::string(text);
  };
  switch (pole.kind) {
    case PoleKind::debye:
      if (pole_memory(pole, dt) < kMinMemory)
        return "tau = " + number(pole.tau) + " s is shorter than the time step resolves (tau >= " +
               number(0.5 * dt * (1 + kMinMemory) / (1 - kMinMemory)) + " s at dt = " + number(dt) + " s)";
      return "";
    case PoleKind::drude:
      // No bound on the plasma frequency: below it the scheme's response is the continuous one at
      // the mapped frequency whatever omega dt (a metal at microwave frequencies has omega dt >> 1).
      if (pole_memory(pole, dt) < kMinMemory)
        return "gamma = " + number(pole.gamma) +
               " rad/s damps faster than the time step resolves (gamma dt <= " + number(kMaxDampingDt) +
               ", gamma <= " + number(kMaxDampingDt / dt) + " rad/s at dt = " + number(dt) + " s)";
      return "";
    case PoleKind::lorentz:
      if (pole.omega * dt > kMaxOmegaDt)
        return "omega = " + number(pole.omega) +
               " rad/s, the resonance, is above what the time step resolves (omega dt <= " + number(kMaxOmegaDt) +
               ", omega <= " + number(kMaxOmegaDt / dt) + " rad/s at dt = " + number(dt) +
               " s: the scheme would put the resonance elsewhere)";
      if (pole_memory(pole, dt) < kMinMemory)
        return "gamma = " + number(pole.gamma) + " rad/s damps faster than the time step resolves (gamma dt <= about " +
               number(kMaxDampingDt) + " at dt = " + number(dt) + " s)";
      return "";
  }
  return "";
}

DispersiveUpdate dispersive_update(const Material& material, double dt) {
  const double eps = material.eps_r * kEps0;
  std::vector<PoleScheme> schemes;
  double new_terms = 0, old_terms = 0;
  for (const Pole& pole : material.poles) {
    schemes.push_back(scheme(pole, dt));
    new_terms += schemes.back().beta_new, old_terms += schemes.back().beta_old;
  }
  const double D = eps / dt + material.sigma / 2 + new_terms / 2;
  const double C1 = (eps / dt - material.sigma / 2 - old_terms / 2) / D, C2 = 1 / D;
  DispersiveUpdate update;
  update.e_decay = C1, update.e_curl = C2;
  for (const PoleScheme& s : schemes) {
    // g = A^-1 d, h = f + g; e_decay gains C2 w.g, u = -C2 w.
    double g[2];
    if (s.states == 1) {
      g[0] = s.d[0] / s.A[0][0], g[1] = 0;
    } else {
      const double det = s.A[0][0] * s.A[1][1] - s.A[0][1] * s.A[1][0];
      g[0] = (s.A[1][1] * s.d[0] - s.A[0][1] * s.d[1]) / det;
      g[1] = (s.A[0][0] * s.d[1] - s.A[1][0] * s.d[0]) / det;
    }
    PoleUpdate p;
    p.states = s.states;
    for (int r = 0; r < s.states; ++r) {
      for (int c = 0; c < s.states; ++c) p.a[r][c] = s.A[r][c];
      p.h[r] = s.f[r] + g[r];
      p.u[r] = -C2 * s.w[r];
      update.e_decay += C2 * s.w[r] * g[r];
    }
    update.poles.push_back(p);
  }
  return update;
}

std::complex<double> susceptibility(const Pole& p, double w) {
  using namespace std::complex_literals;
  switch (p.kind) {
    case PoleKind::debye: return p.delta_eps / (1.0 + 1i * w * p.tau);
    case PoleKind::drude: return -p.omega * p.omega / (w * w - 1i * w * p.gamma);
    case PoleKind::lorentz: return p.delta_eps * p.omega * p.omega / (p.omega * p.omega - w * w + 1i * w * p.gamma);
  }
  return 0.0;
}

std::complex<double> relative_permittivity(const Material& material, double w) {
  using namespace std::complex_literals;
  std::complex<double> eps = material.eps_r - 1i * material.sigma / (w * kEps0);
  for (const Pole& pole : material.poles) eps += susceptibility(pole, w);
  return eps;
}

Material peplinski_material(const PeplinskiSoil& soil, const std::string& name) {
  // Water at 25 degrees C and zero salinity (Klein & Swift 1977), the soil's water phase.
  constexpr double T = 25;
  const double water_eps_inf = 4.9;
  const double water_eps_static = 88.045 - 0.4147 * T + 6.295e-4 * T * T + 1.075e-5 * T * T * T;
  const double water_tau =
      (1.1109e-10 - 3.824e-12 * T + 6.938e-14 * T * T - 5.096e-16 * T * T * T) / (2 * std::numbers::pi);
  const double water_delta = water_eps_static - water_eps_inf;
  const double w = 2 * std::numbers::pi * 1.3e9;
  const double water_real = water_eps_inf + water_delta / (1 + (w * water_tau) * (w * water_tau));
  // Peplinski, Ulaby & Dobson (1995), with their correction for 0.3-1.3 GHz.
  const double a = 0.65;
  const double sand_eps = (1.01 + 0.44 * soil.sand_density) * (1.01 + 0.44 * soil.sand_density) - 0.062;
  const double b1 = 1.2748 - 0.519 * soil.sand - 0.152 * soil.clay;
  const double b2 = 1.33797 - 0.603 * soil.sand - 0.166 * soil.clay;
  const double sigma_eff = 0.0467 + 0.2204 * soil.bulk_density - 0.411 * soil.sand + 0.6614 * soil.clay;
  const double mv = soil.water;
  double eps_real = std::pow(1 + (soil.bulk_density / soil.sand_density) * (std::pow(sand_eps, a) - 1) +
                                 std::pow(mv, b1) * std::pow(water_real, a) - mv,
                             1 / a);
  eps_real = 1.15 * eps_real - 0.68;
  Material m;
  m.name = name;
  m.eps_r = eps_real - std::pow(mv, b2 / a) * water_delta;
  m.sigma = std::pow(mv, b2 / a) * (sigma_eff * (soil.sand_density - soil.bulk_density)) / (soil.sand_density * mv);
  m.poles.push_back({.kind = PoleKind::debye, .delta_eps = eps_real - m.eps_r, .tau = water_tau});
  return m;
}

}  // namespace yeex
