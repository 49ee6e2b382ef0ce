// From the deck's CPML settings to the engine's per-face slabs (kernels/cpml.hpp): the box of
// each face in an engine's local node coordinates and its profile tables in the engine's
// precision.
//
// Geometry. A face of `cells` cells covers the node indices [0, cells) (min face) or
// [n - cells, n) (max face) along its axis: the nodes whose E (integer position along the axis)
// or H (half a cell up) component lies in the slab. Along the two other axes it spans every
// node; along z it spans every local plane of the engine (ghosts included) for x and y faces,
// and the local planes that fall in the global z slab for z faces. Depth rho = 0 at the inner
// edge, 1 at the outer (PEC) edge, evaluated at each component's staggered position.
#pragma once

#include <cstddef>
#include <vector>

#include "io/deck.hpp"
#include "kernels/cpml.hpp"
#include "kernels/field_layout.hpp"

namespace yeex {

// The CPML faces of an engine whose local plane 0 is global plane `k_first`, in face order
// (x_min, x_max, y_min, y_max, z_min, z_max), leaving out faces that are not CPML and z faces
// with no local plane. dt in seconds.
template <typename Real>
std::vector<CpmlFaceSetup<Real>> make_cpml_setup(const Deck& deck, double dt, const FieldLayout& layout, Index k_first);

// Psi values of an engine whose arrays have `layout` and whose local plane 0 is global plane
// k_first (for the memory estimate).
std::size_t cpml_psi_elements(const Deck& deck, const FieldLayout& layout, Index k_first);

}  // namespace yeex
