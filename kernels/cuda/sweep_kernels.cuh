// The cuda engine's plain sweeps: one node a thread (yee_sweep_kernel, which also serves the CPML
// shell boxes, cpml_sweep.cuh) and node pairs (yee_pair_sweep_kernel), the phase coefficient table
// they read, and their launch shapes. Included by cuda_engine.cu's translation unit only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/node_pairs.cuh"
#include "kernels/cuda/sources_probes.cuh"
#include "kernels/engine.hpp"

namespace yeex {
namespace {

// One thread per node. The six field pointers arrive as separate __restrict__ parameters, so the
// compiler may issue every load of the cell before its first store. Without Cpml the plain sweep:
// Axes 0 over nodes of no face, Axes 1 over whole rows that may hold x-face nodes (cpml_split's
// whole_rows), where a warp that meets an x face takes the CPML path (warp_meets_x_face; in float
// the register count stays the plain kernel's). With Cpml each node is update_cell_with_cpml's
// (kernels/cpml.hpp: main update and corrections in registers) for the faces of the Axes its box
// may meet (the x boxes: x only; the y boxes: x, y, their cores y; the z boxes: all, their cores z;
// the strips of a split with cores take yee_strip_kernel, all axes); that kernel only sweeps the
// shell boxes of a CPML run, the plain one the rest (cpml_split), with the register caps of
// cpml_sweep.cuh (kXBoxMinBlocks, kShellMinBlocks). Coordinates and in-plane offsets are 32-bit, the slab
// arithmetic too (CpmlSlab), psi values move in pairs and profiles in padded entries
// (kernels/cpml.hpp): each saves instructions in kernels that spend few per node.
//
// The boxes of one launch: box[0] in the grid's first `split` blocks along the grid axis
// sweep_pair_axis<Axes>, box[1] in the others (a CPML launch sweeps the two shell boxes of an axis,
// one after the other along it; the plain kernel one box).
struct SweepBoxes {
  NodeRange box[2];
  unsigned split = 0;
};

// The axis of the faces whose shell boxes the CPML kernel of Axes sweeps (cpml_split: the x boxes
// meet x faces only, the y boxes x and y ones and their cores y ones, the z boxes all and their
// cores z ones), along which its pair lies.
constexpr int pair_axis(int axes) { return axes == 1 ? 0 : axes == 2 || axes == 3 ? 1 : 2; }
template <int Axes>
constexpr int sweep_pair_axis = pair_axis(Axes);

// One phase's coefficients of a material class as the sweep kernels read them: decay[3],
// curl_a[3], curl_b[3] of CellCoefficients (the E or the H ones), padded to twelve values on a
// 16-byte boundary, so that a node loads them in three (double: six) 16-byte pieces instead of
// nine 4-byte loads. CellCoefficients itself keeps its layout: padded, it would make coop's
// persistent kernel spill.
template <typename Real>
struct alignas(16) PhaseCoefficients {
  Real value[12];
};

// The engine's table: class c's E phase at 2c, its H phase at 2c + 1.
template <typename Real>
std::vector<PhaseCoefficients<Real>> phase_table(const std::vector<CellCoefficients<Real>>& classes) {
  std::vector<PhaseCoefficients<Real>> table(2 * classes.size());
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const CellCoefficients<Real>& m = classes[c];
    Real* e = table[2 * c].value;
    Real* h = table[2 * c + 1].value;
    for (int a = 0; a < 3; ++a) {
      e[a] = m.e_decay[a], e[3 + a] = m.e_curl_a[a], e[6 + a] = m.e_curl_b[a];
      h[a] = m.h_decay[a], h[3 + a] = m.h_curl_a[a], h[6 + a] = m.h_curl_b[a];
    }
  }
  return table;
}

// Class `c`'s coefficients of the phase (the H ones with UpdateH, else the E ones) from the table,
// in 16-byte loads, as a CellCoefficients whose other phase is left unset.
template <typename Real, bool UpdateH>
__device__ __forceinline__ CellCoefficients<Real> phase_coefficients(const PhaseCoefficients<Real>* table, unsigned c) {
  using Piece = std::conditional_t<sizeof(Real) == 4, float4, double2>;
  constexpr int pieces = sizeof(PhaseCoefficients<Real>) / sizeof(Piece);
  const Piece* from = reinterpret_cast<const Piece*>(table + 2 * c + (UpdateH ? 1 : 0));
  Piece v[pieces];
#pragma unroll
  for (int q = 0; q < pieces; ++q) v[q] = __ldg(from + q);
  const Real* r = reinterpret_cast<const Real*>(v);
  CellCoefficients<Real> m;
  Real* decay = UpdateH ? m.h_decay : m.e_decay;
  Real* curl_a = UpdateH ? m.h_curl_a : m.e_curl_a;
  Real* curl_b = UpdateH ? m.h_curl_b : m.e_curl_b;
#pragma unroll
  for (int a = 0; a < 3; ++a) decay[a] = r[a], curl_a[a] = r[3 + a], curl_b[a] = r[6 + a];
  return m;
}

// One node's update, the sweep kernels' common part: with Cpml update_cell_with_cpml for the faces
// of Axes, else the plain update.
template <typename Real, bool UpdateH, bool Cpml, int Axes>
__device__ __forceinline__ void sweep_node(const FieldPointers<Real>& f,
                                           const std::uint8_t* __restrict__ material_class,
                                           const PhaseCoefficients<Real>* __restrict__ phases, const FieldLayout& L,
                                           const CpmlView<Real>& cpml, int i, int j, int k) {
  const Index c = L.narrow_offset(i, j, k);
  const CellCoefficients<Real> m = phase_coefficients<Real, UpdateH>(phases, material_class[c]);
  if constexpr (Cpml)
    update_cell_with_cpml<Real, UpdateH, Axes>(cpml, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
  else if constexpr (UpdateH)
    update_h_cell(f, c, L.pitch_y, L.pitch_z, m);
  else
    update_e_cell(f, c, L.pitch_y, L.pitch_z, m);
}

// Whether any node of the warp of the thread at node i (a row's 32 nodes from i - lane, with
// blocks a multiple of 32 wide) lies in an x face. Exact for such blocks, a superset of the
// thread's own test for others: with any block shape, a node in an x face takes the CPML path.
template <typename Real>
__device__ __forceinline__ bool warp_meets_x_face(const CpmlView<Real>& cpml, int i) {
  const int first = i - static_cast<int>(threadIdx.x & 31u);
  const CpmlSlab<Real>& lower = cpml.slab[0][0];
  const CpmlSlab<Real>& upper = cpml.slab[0][1];
  return (lower.count > 0 && first < lower.begin + lower.count) || (upper.count > 0 && first + 32 > upper.begin);
}

// With Fold (the plain E sweep: no Cpml, Axes 0), each thread adds the folded sources of its node.
template <typename Real, bool UpdateH, bool Cpml, int MinBlocks, int Axes, bool Fold = false>
__global__ void __launch_bounds__(256, MinBlocks)
    yee_sweep_kernel(Real* __restrict__ ex, Real* __restrict__ ey, Real* __restrict__ ez, Real* __restrict__ hx,
                     Real* __restrict__ hy, Real* __restrict__ hz, const std::uint8_t* __restrict__ material_class,
                     const PhaseCoefficients<Real>* __restrict__ phases, FieldLayout L, SweepBoxes boxes,
                     const __grid_constant__ CpmlView<Real> cpml, const __grid_constant__ SourceFold<Real> fold) {
  static_assert(!Fold || (!UpdateH && !Cpml && Axes == 0), "sources fold into the plain E sweep only");
  follow_previous_kernel();
  // The block's box, field by field (selecting a whole NodeRange would copy the parameters to
  // local memory to index them); 32-bit coordinates (CudaEngine checks narrow_planes()).
  constexpr int along = sweep_pair_axis<Axes>;
  const bool second = Cpml && (along == 0 ? blockIdx.x : along == 1 ? blockIdx.y : blockIdx.z) >= boxes.split;
  const unsigned bx = second && along == 0 ? blockIdx.x - boxes.split : blockIdx.x;
  const unsigned by = second && along == 1 ? blockIdx.y - boxes.split : blockIdx.y;
  const unsigned bz = second && along == 2 ? blockIdx.z - boxes.split : blockIdx.z;
  const auto pick = [&](Index NodeRange::*bound) {
    return static_cast<int>(second ? boxes.box[1].*bound : boxes.box[0].*bound);
  };
  const int i = pick(&NodeRange::i0) + static_cast<int>(bx * blockDim.x + threadIdx.x);
  const int j = pick(&NodeRange::j0) + static_cast<int>(by * blockDim.y + threadIdx.y);
  const int k = pick(&NodeRange::k0) + static_cast<int>(bz * blockDim.z + threadIdx.z);
  if (i >= pick(&NodeRange::i1) || j >= pick(&NodeRange::j1) || k >= pick(&NodeRange::k1)) return;
  const FieldPointers<Real> f{ex, ey, ez, hx, hy, hz};
  if constexpr (!Cpml && Axes == 1)
    if (warp_meets_x_face(cpml, i))
      return sweep_node<Real, UpdateH, true, 1>(f, material_class, phases, L, cpml, i, j, k);
  sweep_node<Real, UpdateH, Cpml, Axes>(f, material_class, phases, L, cpml, i, j, k);
  if constexpr (Fold) add_folded_sources(fold, f, L.narrow_offset(i, j, k), 1);
}

// Node pairs (float sweeps of a run without CPML): each thread updates two neighbouring nodes of a
// row, i and i + 1 (i even), with 8-byte loads and stores of its pair, and loads the x neighbour
// outside its pair on its own (an L1 hit: the next lane loads that line too). Blocks of kPairLanes
// x kPairRows threads take 2 kPairLanes x kPairRows nodes of one plane; boxes start on an even node
// and hold an even count in x (else the sweep takes yee_sweep_kernel). A lane past the box's end
// computes the box's last pair again, so that its warp keeps one shape, and stores nothing. Every
// node computes h_cell_from / e_cell_from on the inputs the one-node kernel loads for it: the same
// bits. A thread keeps twice the bytes in flight of a one-node thread, which makes the sweep
// faster (docs/performance.md#node-pairs). Double keeps one node a thread: the same kernel with
// 16-byte loads gains too little to keep a second path. CudaEngineOptions::node_pairs (a test
// seam) turns pairs off.
constexpr unsigned kPairLanes = 32, kPairRows = 4;
constexpr int kPairMinBlocks = 12;

// The pair of this thread on plane k of a pair sweep's box (blocks of kPairLanes x kPairRows
// threads): updates it and returns its first node's offset, or -1 where the thread has no pair to
// store (a row past the box: a whole warp; a lane past its end computes the row's last pair).
template <bool UpdateH, bool Fold>
__device__ __forceinline__ Index sweep_pair(const FieldPointers<float>& f, const std::uint8_t* material_class,
                                            const PhaseCoefficients<float>* phases, const FieldLayout& L,
                                            const NodeRange& box, int k, const SourceFold<float>& fold) {
  const int i = static_cast<int>(box.i0) + 2 * static_cast<int>(blockIdx.x * kPairLanes + threadIdx.x);
  const int j = static_cast<int>(box.j0) + static_cast<int>(blockIdx.y * kPairRows + threadIdx.y);
  if (j >= box.j1) return -1;
  const bool live = i < box.i1;
  const Index c = L.narrow_offset(live ? i : static_cast<int>(box.i1) - 2, j, k);
  update_node_pair<UpdateH>(
      f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, material_class, c, static_cast<int>(L.pitch_y), L.pitch_z,
      [phases](unsigned cls) { return phase_coefficients<float, UpdateH>(phases, cls); }, live);
  if (!live) return -1;
  if constexpr (Fold) add_folded_sources(fold, f, c, 2);
  return c;
}

// With Fold (E only), each live thread adds the folded sources of its pair's nodes.
template <bool UpdateH, bool Fold = false>
__global__ void __launch_bounds__(kPairLanes* kPairRows, kPairMinBlocks)
    yee_pair_sweep_kernel(float* __restrict__ ex, float* __restrict__ ey, float* __restrict__ ez,
                          float* __restrict__ hx, float* __restrict__ hy, float* __restrict__ hz,
                          const std::uint8_t* __restrict__ material_class,
                          const PhaseCoefficients<float>* __restrict__ phases, FieldLayout L, NodeRange box,
                          const __grid_constant__ SourceFold<float> fold) {
  static_assert(!Fold || !UpdateH, "sources fold into the E sweep only");
  follow_previous_kernel();
  sweep_pair<UpdateH, Fold>(FieldPointers<float>{ex, ey, ez, hx, hy, hz}, material_class, phases, L, box,
                            static_cast<int>(box.k0) + static_cast<int>(blockIdx.z), fold);
}

// Block shape of the one-node sweeps, the plain box and the CPML shell boxes alike (narrow boxes
// see shell_block); see docs/performance.md#cpml-split.
constexpr dim3 kSweepBlock(64, 2, 1);

// Whether the float sweeps may take node pairs (yee_pair_sweep_kernel): every even node starts a
// pair's aligned load (the rows' first nodes and pitches are even).
bool pairs_fit(const FieldLayout& L) { return L.origin_x % 2 == 0 && L.pitch_y % 2 == 0; }

// What every sweep kernel takes first: the six field arrays, the class bytes, the phase table (the
// engine's phase_table) and the layout.
template <typename Real>
struct SweepOperands {
  FieldPointers<Real> f;
  const std::uint8_t* material_class;
  const PhaseCoefficients<Real>* phases;
  FieldLayout layout;
};

// The grid of a pair sweep over r: blocks of kPairLanes x kPairRows threads, a plane of blocks a
// node plane.
dim3 pair_grid(const NodeRange& r) {
  return dim3(blocks(r.i1 - r.i0, 2 * kPairLanes), blocks(r.j1 - r.j0, kPairRows), static_cast<unsigned>(r.k1 - r.k0));
}

}  // namespace
}  // namespace yeex
