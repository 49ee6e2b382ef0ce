// The Yee cell update: the one source of truth for every engine (host loops, CUDA kernels, and
// later the persistent cooperative kernel). Engines only decide which nodes to visit.
//
// Staggering (node (i,j,k) is at (i dx, j dy, k dz)):
//   Ex(i,j,k) at (i+1/2, j, k)      Hx(i,j,k) at (i, j+1/2, k+1/2)
//   Ey(i,j,k) at (i, j+1/2, k)      Hy(i,j,k) at (i+1/2, j, k+1/2)
//   Ez(i,j,k) at (i, j, k+1/2)      Hz(i,j,k) at (i+1/2, j+1/2, k)
// H advances from n-1/2 to n+1/2 using E^n; E advances from n to n+1 using H^{n+1/2}.
//
// Each node carries one byte, its material class; the class holds the update coefficients of all
// six components at that node (see kernels/material_classes.hpp), so a component on a PEC face,
// inside a PEC object or outside the grid is simply one whose coefficients are zero.
#pragma once

#include <cmath>
#include <cstdint>

#include "decomposition/grid.hpp"

#if defined(__CUDACC__)
#define YEEX_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define YEEX_HOST_DEVICE inline
#endif

namespace yeex {

// Update coefficients of one material class. Index 0,1,2 = x,y,z component.
//   E = e_decay * E + (e_curl_a * dA - e_curl_b * dB)
//   H = h_decay * H - (h_curl_a * dA - h_curl_b * dB)
// where dA, dB are the two differences of the curl (see the cell functions); each curl
// coefficient already holds dt/eps (or dt/mu), the loss factor and 1/d of its direction.
template <typename Real>
struct CellCoefficients {
  Real e_decay[3];
  Real e_curl_a[3];
  Real e_curl_b[3];
  Real h_decay[3];
  Real h_curl_a[3];
  Real h_curl_b[3];
};

// a * b + c as one explicit fused multiply-add (one rounding), so that every loop and kernel that
// calls the cell functions rounds identically whatever contractions the compiler would choose in
// its context: the engine's sweep kernels and the cooperative backend's persistent kernel must
// agree bit for bit (the bitwise contract across backends rests on this), and the host and cuda
// engines then perform the same operations too.
template <typename Real>
YEEX_HOST_DEVICE Real fused(Real a, Real b, Real c) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 4)
    return __fmaf_rn(a, b, c);
  else
    return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);  // one instruction with FMA hardware (x86-64-v3), vectorised by omp simd
#endif
}

template <typename Real>
struct FieldPointers {
  Real* ex;
  Real* ey;
  Real* ez;
  Real* hx;
  Real* hy;
  Real* hz;
};

// The array of component c.
template <typename Real>
YEEX_HOST_DEVICE Real* component_array(const FieldPointers<Real>& f, Component c) {
  switch (c) {
    case Component::Ex: return f.ex;
    case Component::Ey: return f.ey;
    case Component::Ez: return f.ez;
    case Component::Hx: return f.hx;
    case Component::Hy: return f.hy;
    default: return f.hz;
  }
}

// What one node's update computes, before anything is stored: the new values of its three H (or
// E) components, x y z, and the six differences of the curl by the axis they differentiate
// along: diff[d] = {F[d+1] difference, F[d+2] difference} along axis d (component indices mod 3),
// e.g. for H diff[2] = {Ex(k+1) - Ex(k), Ey(k+1) - Ey(k)}. The CPML corrections (kernels/cpml.hpp)
// reuse exactly these differences, so a kernel may apply them in registers before its stores.
template <typename Real>
struct CellUpdate {
  Real value[3];
  Real diff[3][2];
};

// The values one node's H update reads: its E and the E of its neighbours one node up in x, y
// and z, and its own H (h_cell_from).
template <typename Real>
struct HInputs {
  Real ex, ey, ez, ex_up_y, ex_up_z, ey_up_x, ey_up_z, ez_up_x, ez_up_y, hx, hy, hz;
};

// The values one node's E update reads: its H and the H of its neighbours one node down in x, y
// and z, and its own E (e_cell_from).
template <typename Real>
struct EInputs {
  Real hx, hy, hz, hx_down_y, hx_down_z, hy_down_x, hy_down_z, hz_down_x, hz_down_y, ex, ey, ez;
};

// H^{n-1/2} -> H^{n+1/2} from the node's inputs.
template <typename Real>
YEEX_HOST_DEVICE CellUpdate<Real> h_cell_from(const HInputs<Real>& in, const CellCoefficients<Real>& m) {
  CellUpdate<Real> u;
  u.diff[0][0] = in.ey_up_x - in.ey, u.diff[0][1] = in.ez_up_x - in.ez;
  u.diff[1][0] = in.ez_up_y - in.ez, u.diff[1][1] = in.ex_up_y - in.ex;
  u.diff[2][0] = in.ex_up_z - in.ex, u.diff[2][1] = in.ey_up_z - in.ey;
  // H = decay * H - (a * dA - b * dB)
  const Real curl_x = fused(m.h_curl_a[0], u.diff[1][0], -(m.h_curl_b[0] * u.diff[2][1]));  // dEz/dy - dEy/dz
  const Real curl_y = fused(m.h_curl_a[1], u.diff[2][0], -(m.h_curl_b[1] * u.diff[0][1]));  // dEx/dz - dEz/dx
  const Real curl_z = fused(m.h_curl_a[2], u.diff[0][0], -(m.h_curl_b[2] * u.diff[1][1]));  // dEy/dx - dEx/dy
  u.value[0] = fused(m.h_decay[0], in.hx, -curl_x);
  u.value[1] = fused(m.h_decay[1], in.hy, -curl_y);
  u.value[2] = fused(m.h_decay[2], in.hz, -curl_z);
  return u;
}

// E^n -> E^{n+1} from the node's inputs.
template <typename Real>
YEEX_HOST_DEVICE CellUpdate<Real> e_cell_from(const EInputs<Real>& in, const CellCoefficients<Real>& m) {
  CellUpdate<Real> u;
  u.diff[0][0] = in.hy - in.hy_down_x, u.diff[0][1] = in.hz - in.hz_down_x;
  u.diff[1][0] = in.hz - in.hz_down_y, u.diff[1][1] = in.hx - in.hx_down_y;
  u.diff[2][0] = in.hx - in.hx_down_z, u.diff[2][1] = in.hy - in.hy_down_z;
  // E = decay * E + (a * dA - b * dB)
  const Real curl_x = fused(m.e_curl_a[0], u.diff[1][0], -(m.e_curl_b[0] * u.diff[2][1]));  // dHz/dy - dHy/dz
  const Real curl_y = fused(m.e_curl_a[1], u.diff[2][0], -(m.e_curl_b[1] * u.diff[0][1]));  // dHx/dz - dHz/dx
  const Real curl_z = fused(m.e_curl_a[2], u.diff[0][0], -(m.e_curl_b[2] * u.diff[1][1]));  // dHy/dx - dHx/dy
  u.value[0] = fused(m.e_decay[0], in.ex, curl_x);
  u.value[1] = fused(m.e_decay[1], in.ey, curl_y);
  u.value[2] = fused(m.e_decay[2], in.ez, curl_z);
  return u;
}

// H^{n-1/2} -> H^{n+1/2} at the node with array offset c; sy, sz are the y and z pitches.
// Every input is loaded before the first store, so the compiler need not assume the six arrays
// are distinct to keep all loads in flight.
template <typename Real>
YEEX_HOST_DEVICE CellUpdate<Real> h_cell_update(const FieldPointers<Real>& f, Index c, Index sy, Index sz,
                                                const CellCoefficients<Real>& m) {
  const HInputs<Real> in{f.ex[c],      f.ey[c],     f.ez[c],      f.ex[c + sy], f.ex[c + sz], f.ey[c + 1],
                         f.ey[c + sz], f.ez[c + 1], f.ez[c + sy], f.hx[c],      f.hy[c],      f.hz[c]};
  return h_cell_from(in, m);
}

// E^n -> E^{n+1} at the node with array offset c.
template <typename Real>
YEEX_HOST_DEVICE CellUpdate<Real> e_cell_update(const FieldPointers<Real>& f, Index c, Index sy, Index sz,
                                                const CellCoefficients<Real>& m) {
  const EInputs<Real> in{f.hx[c],      f.hy[c],     f.hz[c],      f.hx[c - sy], f.hx[c - sz], f.hy[c - 1],
                         f.hy[c - sz], f.hz[c - 1], f.hz[c - sy], f.ex[c],      f.ey[c],      f.ez[c]};
  return e_cell_from(in, m);
}

template <typename Real>
YEEX_HOST_DEVICE void store_cell(Real* x, Real* y, Real* z, Index c, const CellUpdate<Real>& u) {
  x[c] = u.value[0];
  y[c] = u.value[1];
  z[c] = u.value[2];
}

template <typename Real>
YEEX_HOST_DEVICE void update_h_cell(const FieldPointers<Real>& f, Index c, Index sy, Index sz,
                                    const CellCoefficients<Real>& m) {
  store_cell(f.hx, f.hy, f.hz, c, h_cell_update(f, c, sy, sz, m));
}

template <typename Real>
YEEX_HOST_DEVICE void update_e_cell(const FieldPointers<Real>& f, Index c, Index sy, Index sz,
                                    const CellCoefficients<Real>& m) {
  store_cell(f.ex, f.ey, f.ez, c, e_cell_update(f, c, sy, sz, m));
}

// A soft current source: E -= coefficient * sample (see kernels/engine.hpp, PointSource).
template <typename Real>
YEEX_HOST_DEVICE void add_source(Real& e, Real coefficient, Real sample) {
  e = fused(-coefficient, sample, e);
}

}  // namespace yeex
