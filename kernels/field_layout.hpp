// Memory layout of one field component array (all six components share it).
//
// x is fastest. Each row is padded so that node i=0 starts on a 128-byte boundary and so that
// one pad node exists on both sides in x and y (i=-1, i=nx+1); in z there are `ghost` planes on
// both sides (at least one). Pads hold zero and are never written, which lets the H update read
// i+1 and the E update read i-1 at every node without a branch. Offsets are 64-bit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>

#include "decomposition/grid.hpp"

namespace yeex {

// Where the field arrays lie relative to one another in memory moves the sweeps that stream them
// by a few per cent, and which offsets suit a grid cannot be told from its sizes. So the cuda
// engine keeps fields of kPlacementTrialBytes or more in one allocation, a field arena: field c at
// c x slot, the class bytes (one a node) after the sixth field, a slot being a field's bytes rounded
// up to a unit of kSlotUnits. The engine times a few steps in the arena of each unit that fits in
// the memory left and keeps the fastest (FieldStorage::choose_placement in kernels/cuda/field_arena.cpp; docs/performance.md#field-arena);
// `--arena-unit` fixes the unit instead. Smaller fields take an allocation each, of their size.
inline constexpr std::size_t kSlotUnits[] = {std::size_t(2) << 20, std::size_t(32) << 20, std::size_t(1) << 30};
inline constexpr std::size_t kPlacementTrialBytes = std::size_t(128) << 20;

inline std::size_t field_slot(std::size_t field_bytes, std::size_t unit) {
  return (field_bytes + unit - 1) / unit * unit;
}
// The bytes of a field arena of `elements` a field, `real` bytes an element, in slots of `unit`.
inline std::size_t field_arena_bytes(std::size_t elements, std::size_t real, std::size_t unit) {
  return kComponentCount * field_slot(elements * real, unit) + elements;
}
// A slot unit as `--arena-unit` names it: "2M", "32M", "1G".
inline std::string slot_unit_name(std::size_t unit) {
  return unit >= (std::size_t(1) << 30) && unit % (std::size_t(1) << 30) == 0 ? std::to_string(unit >> 30) + "G"
                                                                              : std::to_string(unit >> 20) + "M";
}
// The unit `--arena-unit NAME` asks for: 0 for "auto" (the placement trial), else one of
// kSlotUnits; nullopt for any other name.
inline std::optional<std::size_t> arena_unit_named(const std::string& name) {
  if (name == "auto") return std::size_t(0);
  for (const std::size_t unit : kSlotUnits)
    if (name == slot_unit_name(unit)) return unit;
  return std::nullopt;
}

struct FieldLayout {
  Index nodes_x = 0, nodes_y = 0, nodes_z = 0;  // nodes stored in this array (excluding pads)
  Index origin_x = 0, origin_y = 1, origin_z = 1;
  Index pitch_y = 0;  // elements from (i,j,k) to (i,j+1,k)
  Index pitch_z = 0;  // elements from (i,j,k) to (i,j,k+1)
  Index planes = 0;   // allocated z planes, pads included

  // A layout for nodes_x * nodes_y * nodes_z nodes with `ghost` pad planes on each side in z.
  static FieldLayout make(Index nodes_x, Index nodes_y, Index nodes_z, Index ghost, std::size_t element_size) {
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
      Index
      offset(Index i, Index j, Index k) const {
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
      Index
      narrow_offset(int i, int j, int k) const {
    return static_cast<Index>(k + static_cast<int>(origin_z)) * pitch_z +
           ((j + static_cast<int>(origin_y)) * static_cast<int>(pitch_y) + (i + static_cast<int>(origin_x)));
  }
};

}  // namespace yeex
