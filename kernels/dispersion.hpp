// Dispersive materials in the engines: the pass after the E sweep that adds the poles'
// polarisation currents and advances their state (physics/dispersion.hpp derives the scheme).
//
// The main sweep updates a dispersive node as any other, with its material's e_decay and e_curl
// (and its CPML corrections). Then, per E component c whose material has poles, and per pole:
//   E += u . y        (every pole, in order, each state in order: one fused multiply-add each)
//   y  = A y + h E    (from the node's new E alone; no E of an earlier step is kept)
// The pass reads and writes only the node's own E and state, so it gives the same bits run right
// after the sweep of a range or fused into it, in any order of nodes: the bitwise contract holds.
//
// State is stored only for nodes whose class has a dispersive E component: runs of such nodes
// along x (DispersiveRow), sorted by plane, row and x, numbered consecutively ("entries"). A
// plane's entries are contiguous, and two subdomains number a global plane's entries alike (the
// same rows), so a B+2R transfer moves a run of planes' state as one chunk per state array.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cpml.hpp"
#include "kernels/yee_stencil.hpp"

namespace yeex {

inline constexpr int kMaxPoles = 4;                   // per material
inline constexpr int kMaxPoleStates = 2 * kMaxPoles;  // per component and node (lorentz poles: 2)

// The poles of one dispersive material, in the engine's precision (physics/dispersion.hpp's
// PoleUpdate); entries beyond `states[p]` and `poles` are zero.
template <typename Real>
struct PoleSet {
  int poles = 0;
  int states[kMaxPoles] = {};
  Real a[kMaxPoles][2][2] = {};
  Real h[kMaxPoles][2] = {};
  Real u[kMaxPoles][2] = {};
};

// Nodes [i0, i0 + count) of row (j, k) (local coordinates) hold entries [first, first + count).
struct DispersiveRow {
  Index k = 0, j = 0, i0 = 0, count = 0, first = 0;
};

// What an engine's dispersion pass reads (device pointers on a device engine).
template <typename Real>
struct DispersionView {
  int states = 0;                       // state slots per component and node; 0: no dispersive node
  Index entries = 0;                    // nodes with state
  const DispersiveRow* row = nullptr;   // sorted by (k, j, i0)
  const std::int8_t* set_of = nullptr;  // [class * 3 + E component]: its pole set, or -1
  const PoleSet<Real>* set = nullptr;
  Real* state = nullptr;  // slot s of component c of entry e at [(c * states + s) * entries + e]
};

// One E component's pass: `e` its value at the node, `p` its material's poles, `y` its first state
// slot of the node's entry (slot s at y[s * n], n = entries).
template <typename Real>
YEEX_HOST_DEVICE void disperse_component(Real& e, const PoleSet<Real>& p, Real* y, Index n) {
  Real value = e;
  for (int q = 0, s = 0; q < p.poles; s += p.states[q], ++q) {
    value = fused(p.u[q][0], y[s * n], value);
    if (p.states[q] == 2) value = fused(p.u[q][1], y[(s + 1) * n], value);
  }
  for (int q = 0, s = 0; q < p.poles; s += p.states[q], ++q) {
    const Real y0 = y[s * n];
    if (p.states[q] == 1) {
      y[s * n] = fused(p.h[q][0], value, p.a[q][0][0] * y0);
    } else {
      const Real y1 = y[(s + 1) * n];
      y[s * n] = fused(p.h[q][0], value, fused(p.a[q][0][1], y1, p.a[q][0][0] * y0));
      y[(s + 1) * n] = fused(p.h[q][1], value, fused(p.a[q][1][1], y1, p.a[q][1][0] * y0));
    }
  }
  e = value;
}

// The first state slot of component c of entry `entry`.
template <typename Real>
YEEX_HOST_DEVICE Real* state_of(const DispersionView<Real>& v, int c, Index entry) {
  return v.state + static_cast<Index>(c * v.states) * v.entries + entry;
}

// One node's pass: `e` its three E components' arrays, `offset` the node, `sets_of` its class's
// three pole sets (set_of + 3 * class), `entry` its state entry. The components are independent
// (a device engine may give each its own thread).
template <typename Real>
YEEX_HOST_DEVICE void disperse_node(Real* const e[3], Index offset, const std::int8_t* sets_of,
                                    const DispersionView<Real>& v, Index entry) {
  for (int c = 0; c < 3; ++c)
    if (const int m = sets_of[c]; m >= 0) disperse_component(e[c][offset], v.set[m], state_of(v, c, entry), v.entries);
}

// What the solver hands an engine (EngineSetup::dispersion); empty rows: no dispersive node.
// plane_row[k + origin_z] is the first row of local plane k, plane_entry[...] its first entry
// (planes + 1 values each, layout.planes = every allocated plane).
template <typename Real>
struct DispersionSetup {
  int states = 0;
  Index entries = 0;
  std::vector<DispersiveRow> rows;
  std::vector<Index> plane_row, plane_entry;
  std::vector<std::int8_t> set_of;
  std::vector<PoleSet<Real>> sets;
  bool empty() const { return rows.empty(); }
};

// The rows of planes [k0, k1) (local): [first, last) into the setup's rows.
template <typename Real>
std::pair<Index, Index> dispersive_rows(const DispersionSetup<Real>& d, Index origin_z, Index k0, Index k1) {
  if (d.empty() || k1 <= k0) return {0, 0};
  return {d.plane_row[k0 + origin_z], d.plane_row[k1 + origin_z]};
}

// The state that travels with the E planes [k_begin, k_end) (local) of a B+2R transfer: one chunk
// per state array. Equal global planes give equal counts in every subdomain (the top).
template <typename Real>
std::vector<StateChunk<Real>> dispersion_plane_chunks(const DispersionSetup<Real>& d, const DispersionView<Real>& v,
                                                      Index origin_z, Index k_begin, Index k_end) {
  std::vector<StateChunk<Real>> chunks;
  if (d.empty() || k_end <= k_begin) return chunks;
  const Index first = d.plane_entry[k_begin + origin_z], last = d.plane_entry[k_end + origin_z];
  if (last == first) return chunks;
  for (Index a = 0; a < 3 * static_cast<Index>(v.states); ++a)
    chunks.push_back({v.state + a * v.entries + first, last - first});
  return chunks;
}

}  // namespace yeex
