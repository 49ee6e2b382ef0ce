// A material and its update coefficients: the arithmetic the model and the deck's checks share.
#pragma once

#include <array>
#include <string>

namespace yeex {

struct Material {
  std::string name;
  double eps_r = 1.0;
  double sigma = 0.0;  // S/m
  double mu_r = 1.0;
  bool pec = false;  // perfect electric conductor: tangential E forced to zero
};

// The update coefficients of a material at time step dt (s), in double; the engine stores them in its precision
// (kernels/yee_stencil.hpp), dividing the curl coefficients by the cell size along each difference. With the
// semi-implicit loss l = sigma dt / (2 eps):
//   E = e_decay E + e_curl curl H,  e_decay = (1 - l) / (1 + l),  e_curl = (dt / eps) / (1 + l)
//   H = H - h_curl curl E,          h_curl = dt / mu
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
