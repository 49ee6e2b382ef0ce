// A material and its update coefficients: the arithmetic the model and the deck's checks share.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace yeex {

// One pole of a dispersive material's susceptibility, with time dependence exp(j w t):
//   debye     chi(w) = delta_eps / (1 + j w tau)
//   drude     chi(w) = -omega^2 / (w^2 - j w gamma)                  (omega: the plasma frequency)
//   lorentz   chi(w) = delta_eps omega^2 / (omega^2 - w^2 + j w gamma) (omega: the resonance)
// Angular frequencies and damping in rad/s (physics/dispersion.hpp holds the update).
enum class PoleKind { debye, drude, lorentz };
struct Pole {
  PoleKind kind = PoleKind::debye;
  double delta_eps = 0.0;  // debye, lorentz
  double tau = 0.0;        // debye: relaxation time (s)
  double omega = 0.0;      // drude: plasma frequency; lorentz: resonance (rad/s)
  double gamma = 0.0;      // drude, lorentz: damping (rad/s)
};

struct Material {
  std::string name;
  double eps_r = 1.0;  // with poles: the permittivity at infinite frequency, eps_inf
  double sigma = 0.0;  // S/m
  double mu_r = 1.0;
  bool pec = false;         // perfect electric conductor: tangential E forced to zero
  std::vector<Pole> poles;  // dispersive: eps_r(w) = eps_r + sum of the poles' chi(w) - j sigma/(w eps0)
  bool dispersive() const { return !poles.empty(); }
};

// The update coefficients of a material at time step dt (s), in double; the engine stores them in its precision
// (kernels/yee_stencil.hpp), dividing the curl coefficients by the cell size along each difference. With the
// semi-implicit loss l = sigma dt / (2 eps):
//   E = e_decay E + e_curl curl H,  e_decay = (1 - l) / (1 + l),  e_curl = (dt / eps) / (1 + l)
//   H = H - h_curl curl E,          h_curl = dt / mu
// A dispersive material's e_decay and e_curl are those of its update (physics/dispersion.hpp), which
// adds the poles' polarisation currents after the main update.
struct UpdateCoefficients {
  double e_decay, e_curl, h_curl;
};
UpdateCoefficients update_coefficients(const Material& material, double dt);

// What a Hertzian dipole of this amplitude, polarised along axis `polarisation` (0,1,2 = x,y,z), adds to its E
// component in one step, per unit of its waveform (V/m): e_curl of the material there times amplitude * dl / dV,
// dl the cell size along the polarisation.
double source_coefficient(double amplitude, int polarisation, const Material& material, double dt,
                          const std::array<double, 3>& cell_size);

}  // namespace yeex
