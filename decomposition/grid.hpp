// The global Yee grid and the boxes of nodes that engines update.
//
// A grid of nx*ny*nz cells has (nx+1)*(ny+1)*(nz+1) nodes. Every field component is stored at
// the node whose indices it carries: Ex(i,j,k) sits at ((i+1/2)dx, j dy, k dz), Hx(i,j,k) at
// (i dx, (j+1/2)dy, (k+1/2)dz), and so on (see kernels/yee_stencil.hpp). Components that fall
// outside the box, or on a PEC face, are pinned to zero by the material table, so every engine
// sweeps the same rectangular node range for every component.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace yeex {

using Index = std::int64_t;

struct GridShape {
  Index nx = 0, ny = 0, nz = 0;  // cells along x, y, z

  Index cells() const { return nx * ny * nz; }
  Index nodes() const { return (nx + 1) * (ny + 1) * (nz + 1); }
  std::array<Index, 3> as_array() const { return {nx, ny, nz}; }
};

enum class Component : int { Ex = 0, Ey, Ez, Hx, Hy, Hz };
inline constexpr int kComponentCount = 6;
inline constexpr std::array<Component, 6> kAllComponents = {Component::Ex, Component::Ey, Component::Ez,
                                                            Component::Hx, Component::Hy, Component::Hz};

inline constexpr std::string_view component_name(Component c) {
  constexpr std::array<std::string_view, 6> names = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
  return names[static_cast<int>(c)];
}

inline std::optional<Component> parse_component(std::string_view s) {
  for (Component c : kAllComponents)
    if (component_name(c) == s) return c;
  return std::nullopt;
}

inline constexpr bool is_electric(Component c) { return static_cast<int>(c) < 3; }
inline constexpr int axis_of(Component c) { return static_cast<int>(c) % 3; }

// Offset, in cells, of a component from its node: Ex -> (1/2,0,0), Hx -> (0,1/2,1/2), ...
inline constexpr std::array<double, 3> stagger(Component c) {
  std::array<double, 3> s{0, 0, 0};
  const int a = axis_of(c);
  for (int d = 0; d < 3; ++d) s[d] = is_electric(c) ? (d == a ? 0.5 : 0.0) : (d == a ? 0.0 : 0.5);
  return s;
}

// Half-open box of node indices [i0,i1) x [j0,j1) x [k0,k1), in the coordinates of one field
// layout (global node indices for a single-domain run).
struct NodeRange {
  Index i0 = 0, i1 = 0, j0 = 0, j1 = 0, k0 = 0, k1 = 0;

  Index count() const { return (i1 - i0) * (j1 - j0) * (k1 - k0); }
  bool empty() const { return i1 <= i0 || j1 <= j0 || k1 <= k0; }
};

// All nodes of a grid (what checksums and snapshots cover).
inline NodeRange all_nodes(const GridShape& g) { return {0, g.nx + 1, 0, g.ny + 1, 0, g.nz + 1}; }

// The nodes the engines update: one per cell. The last node plane along each axis is inert in
// a closed PEC box: its E components are tangential to the face (pinned) or outside the grid,
// and its only live H component is normal to the face, driven by the curl of the pinned
// tangential E, so it stays zero. Sweeping nx*ny*nz nodes instead of (nx+1)(ny+1)(nz+1) keeps
// warps full (512 is a multiple of 32, 513 is not).
inline NodeRange update_nodes(const GridShape& g) { return {0, g.nx, 0, g.ny, 0, g.nz}; }

}  // namespace yeex
