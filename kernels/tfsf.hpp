// The total-field/scattered-field corrections, written once for every engine.
//
// Inside a plane wave's box the fields are total fields, outside scattered ones (docs/decks.md,
// "Plane waves"). Where a node's update reads a neighbour on the other side of the box surface,
// the neighbour's incident field is added (the node is total, the neighbour scattered) or taken
// away (the other way round), as coefficient x incident value: the coefficient is the curl
// coefficient of that neighbour in the node's update times the component of the incident
// field's direction, with the sign of the side. The incident values come from a table of the 1D
// grid's E (at n dt, for the H update of step n) and H (at (n + 1/2) dt, for the E update),
// linearly interpolated at the neighbour's position.
//
// Each corrected node is one TfsfNode with its terms (one or two a node, more where boxes of
// several plane waves meet), applied in their order with one fused multiply-add each: the node's
// correction depends on the node and the step alone, so every engine, split and halo depth adds
// the same bits. Engines apply the nodes of a sweep's range right after the sweep (Engine::
// update_h, update_e).
#pragma once

#include <cstdint>
#include <vector>

#include "decomposition/grid.hpp"
#include "kernels/yee_stencil.hpp"

namespace yeex {

// One term of a node's correction: field += coefficient * incident, where incident interpolates
// the table row between entries `line` and `line + 1` with weight `weight` on the latter.
template <typename Real>
struct TfsfTerm {
  std::int32_t line = 0;  // index into a table row (both entries lie in it)
  Real weight = 0;        // in [0, 1)
  Real coefficient = 0;
};

// A corrected node: component `component` at array offset `offset`, terms [first, first + count).
struct TfsfNode {
  Index offset = 0;
  std::int32_t first = 0;
  std::uint8_t component = 0;  // Component
  std::uint8_t count = 0;
};

// What an engine applies: its corrected nodes (those of its stored planes, sorted by offset,
// H and E apart), their terms, and the incident table, a row of `width` values per step and
// field: incident[(2 n + 0) width + m] the 1D grid's E at n dt (for the H update of step n),
// incident[(2 n + 1) width + m] its H at (n + 1/2) dt (for the E update). Several plane waves
// share a row, each its own span of lines.
template <typename Real>
struct TfsfSetup {
  std::vector<TfsfNode> h_nodes, e_nodes;
  std::vector<TfsfTerm<Real>> terms;
  Index width = 0;
  Index steps = 0;
  std::vector<Real> incident;  // steps * 2 * width

  bool empty() const { return h_nodes.empty() && e_nodes.empty(); }
};

// The incident value of one term from its table row.
template <typename Real>
YEEX_HOST_DEVICE Real tfsf_incident(const Real* row, const TfsfTerm<Real>& term) {
  const Real low = row[term.line], high = row[term.line + 1];
  return fused(term.weight, high - low, low);
}

// Applies one node's terms to its component, in order.
template <typename Real>
YEEX_HOST_DEVICE void apply_tfsf_node(const FieldPointers<Real>& f, const TfsfNode& node, const TfsfTerm<Real>* terms,
                                      const Real* row) {
  Real* field = component_array(f, static_cast<Component>(node.component));
  Real value = field[node.offset];
  for (int t = 0; t < node.count; ++t) {
    const TfsfTerm<Real>& term = terms[node.first + t];
    value = fused(term.coefficient, tfsf_incident(row, term), value);
  }
  field[node.offset] = value;
}

// Whether a node at `offset` of `layout` lies in `range` (its i, j, k within the range's).
YEEX_HOST_DEVICE bool tfsf_in_range(Index offset, Index pitch_y, Index pitch_z, Index origin_x, Index origin_y,
                                    Index origin_z, const NodeRange& range) {
  const Index in_plane = offset % pitch_z;
  const Index i = in_plane % pitch_y - origin_x, j = in_plane / pitch_y - origin_y, k = offset / pitch_z - origin_z;
  return i >= range.i0 && i < range.i1 && j >= range.j0 && j < range.j1 && k >= range.k0 && k < range.k1;
}

}  // namespace yeex
