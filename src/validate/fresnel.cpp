#include "src/validate/fresnel.hpp"

#include <cmath>
#include <numbers>

#include "physics/constants.hpp"

namespace yeex {
namespace {

using namespace std::complex_literals;

// The root of k^2 that decays or travels towards +z under exp(j w t - j k z): Im k <= 0, and
// Re k >= 0 where k^2 is real and positive.
Complex forward_root(Complex k_squared) {
  const Complex k = std::sqrt(k_squared);
  return k.imag() > 0 ? -k : k;
}

}  // namespace

Complex analytic_permittivity(const Material& material, double w) {
  // physics/material.hpp: eps_r(w) = eps_inf + sum chi(w) - j sigma/(w eps0), with
  //   debye chi = delta_eps/(1 + j w tau), drude chi = -omega^2/(w^2 - j w gamma),
  //   lorentz chi = delta_eps omega^2/(omega^2 - w^2 + j w gamma).
  Complex eps = material.eps_r - 1i * material.sigma / (w * kEps0);
  for (const Pole& p : material.poles) {
    const double w0 = p.omega * p.omega;
    switch (p.kind) {
      case PoleKind::debye: eps += p.delta_eps / (1.0 + 1i * w * p.tau); break;
      case PoleKind::drude: eps -= w0 / (w * w - 1i * w * p.gamma); break;
      case PoleKind::lorentz: eps += p.delta_eps * w0 / (w0 - w * w + 1i * w * p.gamma); break;
    }
  }
  return eps;
}

Complex guide_wavenumber(const Material& material, double w, double width) {
  const double ky = std::numbers::pi / width, k0 = w / kSpeedOfLight;
  return forward_root(k0 * k0 * analytic_permittivity(material, w) - ky * ky);
}

Complex lattice_wavenumber(const Material& material, double w, const GuideLattice& g) {
  const double Omega = 2 / g.dt * std::sin(w * g.dt / 2), W = 2 / g.dt * std::tan(w * g.dt / 2);
  const double Ky = 2 / g.dy * std::sin(std::numbers::pi * g.dy / (2 * g.width)), K0 = Omega / kSpeedOfLight;
  const Complex Kz = forward_root(K0 * K0 * analytic_permittivity(material, W) - Ky * Ky);
  // asin keeps the sign of the imaginary part, so k_z stays on Kz's branch.
  return 2 / g.dz * std::asin(Kz * g.dz / 2.0);
}

InterfaceCoefficients continuum_interface(Complex k1, Complex k2) {
  return {(k1 - k2) / (k1 + k2), 2.0 * k1 / (k1 + k2), 2.0 * k2 / (k1 + k2)};
}

InterfaceCoefficients lattice_interface(Complex k1, Complex k2, double dz) {
  const Complex s = std::sin((k1 + k2) * dz / 2.0);
  return {std::sin((k1 - k2) * dz / 2.0) / s, std::sin(k1 * dz) / s, std::sin(k2 * dz) / s};
}

Complex slab_transmission(const InterfaceCoefficients& i, Complex k2, double L) {
  const Complex r21 = -i.r12, once = std::exp(-1i * k2 * L);
  return i.t12 * i.t21 * once / (1.0 - r21 * r21 * once * once);
}

}  // namespace yeex
