// The incident field of a total-field/scattered-field plane wave: a 1D FDTD grid along the
// direction of incidence whose numerical dispersion is matched to the 3D Yee grid's along that
// direction (Taflove and Hagness, Computational Electrodynamics, 3rd ed., sections 5.8-5.9: the
// incident-field array with matched numerical dispersion).
//
// The 1D grid has the 3D grid's time step and a cell `spacing` chosen so that its numerical phase
// velocity at the wave's frequency equals the 3D grid's along the direction:
//
//   sin(k spacing / 2) / spacing = sin(w dt / 2) / (v dt),   k the 3D grid's wavenumber along u:
//   sum_d [ sin(k u_d d_d / 2) / d_d ]^2 = [ sin(w dt / 2) / (v dt) ]^2.
//
// Along an axis the spacing is that axis's cell size, and along a diagonal of cubic cells it is
// d / sqrt(3): there the two grids agree at every frequency, not only at the matched one. The
// 1D grid is driven by a hard source at its node 0 and ends in a graded, matched lossy layer; it
// runs in double on the host.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace yeex {

// The 3D Yee grid's wavenumber (rad/m) along unit vector `u` at angular frequency `omega`, on
// cells `cell` (m) with step dt (s) in a medium of speed `speed` (m/s); NaN where the grid carries
// no such wave along u (beyond its band).
double yee_wavenumber_along(const std::array<double, 3>& u, double omega, const std::array<double, 3>& cell, double dt,
                            double speed);

// The 1D grid's cell size (m) whose phase velocity at omega equals the 3D grid's along u (see the
// header comment); the axis's cell size along an axis; NaN where yee_wavenumber_along is.
double matched_line_spacing(const std::array<double, 3>& u, double omega, const std::array<double, 3>& cell, double dt,
                            double speed);

// The 1D grid's numerical wavenumber (rad/m) at omega: sin(k spacing / 2) / spacing = sin(w dt/2) / (v dt).
double line_wavenumber(double spacing, double omega, double dt, double speed);

struct IncidentLine {
  double spacing = 0;          // m
  double dt = 0;               // s
  double eps = 0, mu = 0;      // the medium's absolute permittivity and permeability
  std::int64_t width = 0;      // nodes recorded: E nodes 0..width-1, H nodes m + 1/2 for m in 0..width-1
  std::int64_t absorber = 40;  // cells of the graded lossy layer after the recorded nodes
};

// Runs the 1D grid for drive.size() steps, E at node 0 at time n dt set to drive[n] (a hard
// source), and returns [step n][0: E at nodes 0..width-1 at n dt, 1: H at nodes m + 1/2 at
// (n + 1/2) dt][width] values (H in A/m, H = E / eta for the forward wave).
std::vector<double> run_incident_line(const IncidentLine& line, const std::vector<double>& drive);

}  // namespace yeex
