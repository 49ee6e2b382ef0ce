// Frequencies of undamped oscillations in a sampled signal: the estimator behind the cavity and
// propagation checks of `yeex validate`.
//
// A lossless PEC cavity rings as a sum of pure sinusoids, one per discrete eigenmode. Windowed
// with a 4-term Blackman-Harris window (sidelobes at -92 dB), each mode gives a peak whose top is
// shifted by the other modes' leakage by far less than 1e-6 of its frequency once the modes are
// more than 4 bins (4 / record length) apart; the top is then located by a golden-section search
// on the exact windowed DFT (not on FFT bins), so the estimate is not limited to the bin spacing.
#pragma once

#include <complex>
#include <span>
#include <vector>

namespace yeex {

// Windowed DFT of x[n] (sample spacing dt) at frequency f, with the Blackman-Harris window.
std::complex<double> windowed_dft(std::span<const double> x, double dt, double f);

// Sum over the signals of |windowed_dft|^2 at f.
double windowed_power(const std::vector<std::vector<double>>& signals, double dt, double f);

struct SpectralPeak {
  double frequency = 0;  // Hz, refined to the top of the windowed DFT
  double power = 0;      // windowed_power there
};

// Local maxima of windowed_power in (0, f_max] with at least `relative_floor` times the largest
// maximum's power, strongest first, at the bins of an 8x zero-padded FFT (spacing
// 1 / (8 N dt), returned in `bin`).
std::vector<SpectralPeak> coarse_spectral_peaks(const std::vector<std::vector<double>>& signals, double dt,
                                                double f_max, double relative_floor, double& bin);

// The top of the windowed DFT within one padded bin of a coarse peak, by golden-section search
// to 1e-10 of the frequency.
SpectralPeak refine_spectral_peak(const std::vector<std::vector<double>>& signals, double dt, SpectralPeak coarse,
                                  double bin);

// Both: every coarse peak refined.
std::vector<SpectralPeak> spectral_peaks(const std::vector<std::vector<double>>& signals, double dt, double f_max,
                                         double relative_floor);

// DFT of x at f with no window (rectangular): for the transfer function between two records of
// the same pulse, each complete within its record.
std::complex<double> plain_dft(std::span<const double> x, double dt, double f);

}  // namespace yeex
