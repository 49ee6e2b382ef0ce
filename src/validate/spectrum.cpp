#include "src/validate/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace yeex {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

// 4-term Blackman-Harris (Harris 1978), symmetric over n = 0..N-1.
double blackman_harris(std::size_t n, std::size_t count) {
  const double x = kTwoPi * double(n) / double(count - 1);
  return 0.35875 - 0.48829 * std::cos(x) + 0.14128 * std::cos(2 * x) - 0.01168 * std::cos(3 * x);
}

// sum_n weight(n) x[n] exp(-2 pi i f n dt); the phasor advances by multiplication and is
// recomputed exactly every 512 samples so that rounding does not accumulate.
template <typename Weight>
std::complex<double> dft(std::span<const double> x, double dt, double f, Weight weight) {
  const double w = -kTwoPi * f * dt;
  const std::complex<double> step = std::polar(1.0, w);
  std::complex<double> sum = 0, phasor = 1;
  for (std::size_t n = 0; n < x.size(); ++n) {
    if (n % 512 == 0) phasor = std::polar(1.0, w * double(n));
    sum += weight(n) * x[n] * phasor;
    phasor *= step;
  }
  return sum;
}

// In-place radix-2 FFT (size a power of two).
void fft(std::vector<std::complex<double>>& a) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::complex<double> root = std::polar(1.0, -kTwoPi / double(len));
    for (std::size_t i = 0; i < n; i += len) {
      std::complex<double> w = 1;
      for (std::size_t k = 0; k < len / 2; ++k) {
        const std::complex<double> u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
        w *= root;
      }
    }
  }
}

}  // namespace

std::complex<double> windowed_dft(std::span<const double> x, double dt, double f) {
  return dft(x, dt, f, [&](std::size_t n) { return blackman_harris(n, x.size()); });
}

std::complex<double> plain_dft(std::span<const double> x, double dt, double f) {
  return dft(x, dt, f, [](std::size_t) { return 1.0; });
}

double windowed_power(const std::vector<std::vector<double>>& signals, double dt, double f) {
  double power = 0;
  for (const auto& s : signals) power += std::norm(windowed_dft(s, dt, f));
  return power;
}

std::vector<SpectralPeak> coarse_spectral_peaks(const std::vector<std::vector<double>>& signals, double dt,
                                                double f_max, double relative_floor, double& bin) {
  bin = 0;
  if (signals.empty() || signals.front().size() < 16) return {};
  const std::size_t count = signals.front().size();
  std::size_t size = 1;
  while (size < 8 * count) size <<= 1;
  std::vector<double> power(size / 2, 0.0);
  std::vector<std::complex<double>> a(size);
  for (const auto& s : signals) {
    std::fill(a.begin(), a.end(), 0.0);
    for (std::size_t n = 0; n < count; ++n) a[n] = blackman_harris(n, count) * s[n];
    fft(a);
    for (std::size_t b = 0; b < size / 2; ++b) power[b] += std::norm(a[b]);
  }
  bin = 1.0 / (double(size) * dt);
  const std::size_t last = std::min(size / 2 - 1, static_cast<std::size_t>(f_max / bin));
  std::vector<SpectralPeak> peaks;
  for (std::size_t b = 1; b < last; ++b)
    if (power[b] > power[b - 1] && power[b] >= power[b + 1]) peaks.push_back({b * bin, power[b]});
  double strongest = 0;
  for (const auto& p : peaks) strongest = std::max(strongest, p.power);
  std::erase_if(peaks, [&](const SpectralPeak& p) { return p.power < relative_floor * strongest; });
  std::sort(peaks.begin(), peaks.end(), [](const auto& x, const auto& y) { return x.power > y.power; });
  return peaks;
}

SpectralPeak refine_spectral_peak(const std::vector<std::vector<double>>& signals, double dt, SpectralPeak p,
                                  double bin) {
  const double golden = (std::sqrt(5.0) - 1) / 2;
  double lo = p.frequency - bin, hi = p.frequency + bin;
  double x1 = hi - golden * (hi - lo), x2 = lo + golden * (hi - lo);
  double p1 = windowed_power(signals, dt, x1), p2 = windowed_power(signals, dt, x2);
  while (hi - lo > 1e-10 * p.frequency) {
    if (p1 < p2) {
      lo = x1, x1 = x2, p1 = p2;
      x2 = lo + golden * (hi - lo), p2 = windowed_power(signals, dt, x2);
    } else {
      hi = x2, x2 = x1, p2 = p1;
      x1 = hi - golden * (hi - lo), p1 = windowed_power(signals, dt, x1);
    }
  }
  p.frequency = (lo + hi) / 2;
  p.power = windowed_power(signals, dt, p.frequency);
  return p;
}

std::vector<SpectralPeak> spectral_peaks(const std::vector<std::vector<double>>& signals, double dt, double f_max,
                                         double relative_floor) {
  double bin = 0;
  std::vector<SpectralPeak> peaks = coarse_spectral_peaks(signals, dt, f_max, relative_floor, bin);
  for (auto& p : peaks) p = refine_spectral_peak(signals, dt, p, bin);
  return peaks;
}

}  // namespace yeex
