#include "src/validate/mie.hpp"

#include <algorithm>
#include <cmath>

namespace yeex {
namespace {

using Complex = std::complex<double>;
constexpr Complex kI{0.0, 1.0};

int wiscombe_terms(double x) { return static_cast<int>(std::ceil(x + 4 * std::cbrt(x) + 2)); }

// D_n(z) = psi_n'(z) / psi_n(z), n = 0..N, by the downward recurrence
// D_{n-1} = n/z - 1/(D_n + n/z) from well above N and |z| (Bohren & Huffman, 4.89).
std::vector<Complex> log_derivatives(Complex z, int N) {
  const int start = std::max(N, static_cast<int>(std::ceil(std::abs(z)))) + 16;
  std::vector<Complex> D(N + 1);
  Complex d = 0.0;
  for (int n = start; n > 0; --n) {
    if (n <= N) D[n] = d;
    d = double(n) / z - 1.0 / (d + double(n) / z);
  }
  D[0] = d;
  return D;
}

// psi_n(z) = z j_n(z), n = 0..N: by the upward recurrence psi_n = (2n - 1)/z psi_{n-1} - psi_{n-2}
// while n <= |z|, where it is stable, then by psi_n = psi_{n-1} / (D_n + n/z), where psi_n falls
// and has no zeros.
std::vector<Complex> riccati_psi(Complex z, int N) {
  std::vector<Complex> psi(N + 1);
  const int up = std::min(N, static_cast<int>(std::floor(std::abs(z))));
  Complex before = std::cos(z);
  psi[0] = std::sin(z);
  for (int n = 1; n <= up; ++n) {
    psi[n] = double(2 * n - 1) / z * psi[n - 1] - before;
    before = psi[n - 1];
  }
  if (up < N) {
    const std::vector<Complex> D = log_derivatives(z, N);
    for (int n = up + 1; n <= N; ++n) psi[n] = psi[n - 1] / (D[n] + double(n) / z);
  }
  return psi;
}

// xi_n(x) = x h_n^(1)(x) = psi_n(x) - i chi_n(x), n = 0..N, x real; chi_n = -x y_n grows with n,
// so its upward recurrence is stable.
std::vector<Complex> riccati_xi(double x, const std::vector<Complex>& psi) {
  const int N = static_cast<int>(psi.size()) - 1;
  std::vector<Complex> xi(N + 1);
  double chi_before = -std::sin(x), chi = std::cos(x);  // chi_{-1}, chi_0
  xi[0] = psi[0] - kI * chi;
  for (int n = 1; n <= N; ++n) {
    const double next = (2 * n - 1) / x * chi - chi_before;
    chi_before = chi, chi = next;
    xi[n] = psi[n] - kI * chi;
  }
  return xi;
}

// Bohren & Huffman's coefficients (exp(-i w t)) for their index m_bh (Im m_bh >= 0 when lossy).
MieCoefficients bh_coefficients(Complex m, double x, int N) {
  const std::vector<Complex> D = log_derivatives(m * x, N);
  const std::vector<Complex> psi = riccati_psi(x, N);
  const std::vector<Complex> xi = riccati_xi(x, psi);
  MieCoefficients c;
  for (int n = 1; n <= N; ++n) {
    const Complex ta = D[n] / m + double(n) / x, tb = m * D[n] + double(n) / x;
    c.a.push_back((ta * psi[n] - psi[n - 1]) / (ta * xi[n] - xi[n - 1]));
    c.b.push_back((tb * psi[n] - psi[n - 1]) / (tb * xi[n] - xi[n - 1]));
  }
  return c;
}

// pi_n(cos theta) and tau_n(cos theta), n = 0..N (Bohren & Huffman, 4.47).
void angular(double mu, int N, std::vector<double>& pi, std::vector<double>& tau) {
  pi.assign(N + 1, 0.0), tau.assign(N + 1, 0.0);
  if (N >= 1) pi[1] = 1.0, tau[1] = mu;
  for (int n = 2; n <= N; ++n) {
    pi[n] = (2.0 * n - 1) / (n - 1) * mu * pi[n - 1] - double(n) / (n - 1) * pi[n - 2];
    tau[n] = n * mu * pi[n] - (n + 1) * pi[n - 1];
  }
}

struct Spherical {
  double r, theta, phi;
};
Spherical spherical(const std::array<double, 3>& p) {
  const double r = std::hypot(p[0], p[1], p[2]);
  return {r, std::acos(std::clamp(p[2] / r, -1.0, 1.0)), std::atan2(p[1], p[0])};
}

// (E_r, E_theta, E_phi) to Cartesian, conjugated: Bohren & Huffman's phasors to exp(j w t).
std::array<Complex, 3> to_cartesian_conjugate(const Spherical& s, Complex er, Complex et, Complex ep) {
  const double st = std::sin(s.theta), ct = std::cos(s.theta), sp = std::sin(s.phi), cp = std::cos(s.phi);
  return {std::conj(er * st * cp + et * ct * cp - ep * sp), std::conj(er * st * sp + et * ct * sp + ep * cp),
          std::conj(er * ct - et * st)};
}

// E_n = i^n (2n + 1) / (n (n + 1)) (Bohren & Huffman, 4.40, E0 = 1).
Complex expansion_weight(int n) { return std::pow(kI, n) * (2.0 * n + 1) / (double(n) * (n + 1)); }

}  // namespace

MieCoefficients mie_coefficients(Complex m, double x, int terms) {
  return bh_coefficients(std::conj(m), x, terms > 0 ? terms : wiscombe_terms(x));
}

MieEfficiencies mie_efficiencies(Complex m, double x) {
  const MieCoefficients c = mie_coefficients(m, x);
  MieEfficiencies q;
  Complex back = 0.0;
  for (std::size_t i = 0; i < c.a.size(); ++i) {
    const double n = double(i + 1), w = 2 * n + 1;
    q.scattering += w * (std::norm(c.a[i]) + std::norm(c.b[i]));
    q.extinction += w * (c.a[i] + c.b[i]).real();
    back += w * (i % 2 == 0 ? -1.0 : 1.0) * (c.a[i] - c.b[i]);
  }
  q.scattering *= 2 / (x * x), q.extinction *= 2 / (x * x);
  q.backscatter = std::norm(back) / (x * x);
  return q;
}

std::array<Complex, 3> mie_scattered_field(Complex m, double k, double radius, const std::array<double, 3>& point) {
  const Spherical s = spherical(point);
  const double x = k * radius, rho = k * s.r;
  // Terms: the coefficients fall off fast beyond x; near the sphere h_n(k r) grows with n about
  // as fast, so the series takes some more terms there.
  const int N = wiscombe_terms(x) + 16;
  const MieCoefficients c = bh_coefficients(std::conj(m), x, N);
  const std::vector<Complex> xi = riccati_xi(rho, riccati_psi(rho, N));
  std::vector<double> pi, tau;
  angular(std::cos(s.theta), N, pi, tau);
  Complex er = 0.0, et = 0.0, ep = 0.0;
  for (int n = 1; n <= N; ++n) {
    const Complex E = expansion_weight(n), a = c.a[n - 1], b = c.b[n - 1];
    const Complex h = xi[n] / rho, dxi = (xi[n - 1] - double(n) * xi[n] / rho) / rho;  // h_n, [rho h_n]'/rho
    er += E * kI * a * double(n * (n + 1)) * std::sin(s.theta) * pi[n] * h / rho;
    et += E * (kI * a * tau[n] * dxi - b * pi[n] * h);
    ep += E * (-kI * a * pi[n] * dxi + b * tau[n] * h);
  }
  return to_cartesian_conjugate(s, er * std::cos(s.phi), et * std::cos(s.phi), ep * std::sin(s.phi));
}

std::array<Complex, 3> mie_internal_field(Complex m_yeex, double k, double radius, const std::array<double, 3>& point) {
  const Complex m = std::conj(m_yeex);
  const Spherical s = spherical(point);
  const double x = k * radius, rho = k * s.r;
  const int N = wiscombe_terms(std::abs(m) * x) + 16;
  const std::vector<Complex> psi_mx = riccati_psi(m * x, N), psi_mr = riccati_psi(m * rho, N);
  const std::vector<Complex> xi = riccati_xi(x, riccati_psi(x, N));
  std::vector<double> pi, tau;
  angular(std::cos(s.theta), N, pi, tau);
  const Complex mx = m * x, mr = m * rho;
  Complex er = 0.0, et = 0.0, ep = 0.0;
  for (int n = 1; n <= N; ++n) {
    // c_n = m i / [psi_n(mx) xi_n'(x) - m xi_n(x) psi_n'(mx)], d_n = m i / [m psi_n(mx) xi_n'(x) - xi_n(x) psi_n'(mx)]
    // (the boundary conditions at r = a with the Wronskian psi xi' - xi psi' = i).
    const Complex dxi = xi[n - 1] - double(n) * xi[n] / x, dpsi = psi_mx[n - 1] - double(n) * psi_mx[n] / mx;
    const Complex c = m * kI / (psi_mx[n] * dxi - m * xi[n] * dpsi), d = m * kI / (m * psi_mx[n] * dxi - xi[n] * dpsi);
    // j_n(m rho) and [m rho j_n(m rho)]' / (m rho).
    const Complex j = psi_mr[n] / mr, dj = (psi_mr[n - 1] - double(n) * psi_mr[n] / mr) / mr;
    const Complex E = expansion_weight(n);
    er -= E * kI * d * double(n * (n + 1)) * std::sin(s.theta) * pi[n] * j / mr;
    et += E * (c * pi[n] * j - kI * d * tau[n] * dj);
    ep += E * (-c * tau[n] * j + kI * d * pi[n] * dj);
  }
  return to_cartesian_conjugate(s, er * std::cos(s.phi), et * std::cos(s.phi), ep * std::sin(s.phi));
}

}  // namespace yeex
