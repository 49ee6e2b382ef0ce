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

// Where a large array lands in device memory moves the sweeps that stream it, by about a percent
// either way. So a device array of kRoundedArrayBytes or more takes an allocation rounded up to a
// multiple of kArrayRounding (allocation_bytes; at most 32 MiB more an array). Two H200s, against
// the plain sizes in the same call (results/2026-11-26-session23, calls 4-7 and 10):
// - 512^3 f32, one GPU: b2r's slab (two ghost planes) 99.1 -> 99.8-100.0 % of the engine's rate,
//   and the engine itself 54.52 -> 54.67 Gcells/s; weak on 2 GPUs b2r 98.6 -> 99.5 %;
// - 512^3 f64: the engine 28.30 -> 28.74;
// - 640^3 strong on 2 GPUs (slabs of 640 x 640 x 320): graph 98.9 -> 100.2 %, overlap 98.6 -> 99.9 %.
// One H200 at 384^3 -0.3 %, on a 640 x 640 x 160 slab -0.5 %; at 256^3 (arrays of 66 MiB) -0.9 %,
// hence the threshold. One H100 (call 10): 512^3 f32 unchanged, f64 +0.4 %, 640^3 +1.3 %.
// YEEX_ARRAY_ROUNDING_MIB=N rounds to N MiB instead (0: the plain sizes).
constexpr std::size_t kArrayRounding = std::size_t(32) << 20;
constexpr std::size_t kRoundedArrayBytes = std::size_t(128) << 20;

inline std::size_t allocation_bytes(std::size_t bytes) {
  std::size_t unit = kArrayRounding;
  if (const char* mib = std::getenv("YEEX_ARRAY_ROUNDING_MIB"))
    unit = static_cast<std::size_t>(std::max(0, std::atoi(mib))) << 20;
  if (unit == 0 || bytes < kRoundedArrayBytes) return bytes;
  return (bytes + unit - 1) / unit * unit;
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
