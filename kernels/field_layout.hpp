// Memory layout of one field component array (all six components share it).
//
// x is fastest. Each row is padded so that node i=0 starts on a 128-byte boundary and so that
// one pad node exists on both sides in x and y (i=-1, i=nx+1); in z there are `ghost` planes on
// both sides (at least one). Pads hold zero and are never written, which lets the H update read
// i+1 and the E update read i-1 at every node without a branch. Offsets are 64-bit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>

#include "decomposition/grid.hpp"

namespace yeex {

// Where the field arrays lie relative to one another in memory moves the sweeps that stream them,
// by up to 2 %, and which offsets suit a grid could not be told from its sizes (sessions 23, 27 and
// 28 tried rounding units, skews and orders). So the cuda engine keeps fields of
// kPlacementTrialBytes or more in one allocation, a field arena: field c at c x slot, the class
// bytes (one a node) after the sixth field, a slot being a field's bytes rounded up to a unit of
// kSlotUnits. The engine times a few steps in the arena of each unit that fits in the memory left
// and keeps the fastest (CudaEngine::choose_placement). One H200, the engine's ms a step in 2 MiB /
// 32 MiB / 1 GiB slots (results/2026-11-27-session28, call 1; 32 MiB was the fixed rounding of
// sessions 23-27):
//   256 x 256 x 1024  1.2166 / 1.2403 / 1.2162      512^3  2.3951 / 2.3870 / 2.4016
//   640 x 640 x 160   1.1727 / 1.1722 / 1.1661      640^3  4.6435 / 4.6468 / 4.6502
// YEEX_FIELD_SLOT_MIB=N fixes the unit at N MiB (no trial). Smaller fields take an allocation each,
// of their size (32 MiB rounding had cost 256^3 0.9 %).
inline constexpr std::size_t kSlotUnits[] = {std::size_t(2) << 20, std::size_t(32) << 20, std::size_t(1) << 30};
inline constexpr std::size_t kPlacementTrialBytes = std::size_t(128) << 20;

inline std::size_t field_slot(std::size_t field_bytes, std::size_t unit) {
  return (field_bytes + unit - 1) / unit * unit;
}
// The bytes of a field arena of `elements` a field, `real` bytes an element, in slots of `unit`.
inline std::size_t field_arena_bytes(std::size_t elements, std::size_t real, std::size_t unit) {
  return kComponentCount * field_slot(elements * real, unit) + elements;
}
// The slot unit YEEX_FIELD_SLOT_MIB fixes (at least 1 MiB), or 0 where it is unset (the trial).
inline std::size_t fixed_slot_unit() {
  const char* mib = std::getenv("YEEX_FIELD_SLOT_MIB");
  return mib ? static_cast<std::size_t>(std::max(1, std::atoi(mib))) << 20 : 0;
}

struct FieldLayout {
  Index nodes_x = 0, nodes_y = 0, nodes_z = 0;  // nodes stored in this array (excluding pads)
  Index origin_x = 0, origin_y = 1, origin_z = 1;
  Index pitch_y = 0;  // elements from (i,j,k) to (i,j+1,k)
  Index pitch_z = 0;  // elements from (i,j,k) to (i,j,k+1)
  Index planes = 0;   // allocated z planes, pads included

  // A layout for nodes_x * nodes_y * nodes_z nodes with `ghost` pad planes on each side in z.
  static FieldLayout make(Index nodes_x, Index nodes_y, Index nodes_z, Index ghost,
                          std::size_t element_size) {
    FieldLayout l;
    const Index align = static_cast<Index>(128 / element_size);
    l.nodes_x = nodes_x;
    l.nodes_y = nodes_y;
    l.nodes_z = nodes_z;
    l.origin_x = align;
    l.origin_y = 1;
    l.origin_z = ghost < 1 ? 1 : ghost;
    l.pitch_y = ((l.origin_x + nodes_x + 1 + align - 1) / align) * align;
    l.pitch_z = l.pitch_y * (nodes_y + 2);
    l.planes = nodes_z + 2 * l.origin_z;
    return l;
  }

  Index elements() const { return pitch_z * planes; }
  // Offset of the first element of node plane k, pads included: a plane is pitch_z contiguous
  // elements, so whole planes move with one copy.
  Index plane_offset(Index k) const { return (k + origin_z) * pitch_z; }

  // Offset of node (i,j,k); i in [-1, nodes_x], j in [-1, nodes_y], k in [-origin_z, nodes_z+origin_z).
#if defined(__CUDACC__)
  __host__ __device__
#endif
  Index offset(Index i, Index j, Index k) const {
    return (k + origin_z) * pitch_z + (j + origin_y) * pitch_y + (i + origin_x);
  }

  // The node (i, j, k) at element `offset`, offset()'s inverse; pad elements give coordinates
  // outside the node range (i, j below -1 or above nodes_x, nodes_y).
  struct Node {
    Index i, j, k;
  };
  Node node(Index offset) const {
    const Index in_plane = offset % pitch_z;
    return {in_plane % pitch_y - origin_x, in_plane / pitch_y - origin_y, offset / pitch_z - origin_z};
  }

  // Whether a plane has fewer than 2^31 elements, so that narrow_offset may be used.
  bool narrow_planes() const { return pitch_z < (Index(1) << 31); }
  // offset() with 32-bit coordinates and in-plane arithmetic, the plane term alone in 64 bits:
  // fewer instructions in a kernel that spends few per node (the cuda engine's sweeps). Needs
  // narrow_planes().
#if defined(__CUDACC__)
  __host__ __device__
#endif
  Index narrow_offset(int i, int j, int k) const {
    return static_cast<Index>(k + static_cast<int>(origin_z)) * pitch_z +
           ((j + static_cast<int>(origin_y)) * static_cast<int>(pitch_y) + (i + static_cast<int>(origin_x)));
  }
};

}  // namespace yeex
