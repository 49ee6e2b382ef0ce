// The CPML part of the cuda engine's split sweep (kernels/cpml.hpp, cpml_split; CudaEngine::sweep):
// the shell boxes take yee_sweep_kernel with Cpml (sweep_kernels.cuh) under the register caps
// below, the strips of a split with cores yee_strip_kernel, several strips a launch. Included by
// cuda_engine.cu's translation unit only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/sweep_kernels.cuh"
#include "kernels/engine.hpp"

namespace yeex {
namespace {

// The strips of a split with cores (cpml_split), up to kStripBoxes of one block shape in one launch:
// a 1-D grid in which box b has blocks first[b] .. first[b + 1] - 1, blocks_x[b] x blocks_y[b] x
// (its planes) of them. Small boxes each in a launch of their own would cost launch tails.
constexpr int kStripBoxes = 8;
struct StripBoxes {
  int count = 0;
  NodeRange box[kStripBoxes];
  unsigned first[kStripBoxes + 1] = {};
  unsigned blocks_x[kStripBoxes] = {}, blocks_y[kStripBoxes] = {};
};

// Sweeps the strips of `boxes` with every face's test (Axes 7: the strips' axes are 7, 5 or 3).
template <typename Real, bool UpdateH, int MinBlocks>
__global__ void __launch_bounds__(256, MinBlocks)
    yee_strip_kernel(Real* __restrict__ ex, Real* __restrict__ ey, Real* __restrict__ ez, Real* __restrict__ hx,
                     Real* __restrict__ hy, Real* __restrict__ hz, const std::uint8_t* __restrict__ material_class,
                     const PhaseCoefficients<Real>* __restrict__ phases, FieldLayout L,
                     const __grid_constant__ StripBoxes boxes, const __grid_constant__ CpmlView<Real> cpml) {
  follow_previous_kernel();
  int b = 0;
  while (b + 1 < boxes.count && blockIdx.x >= boxes.first[b + 1]) ++b;
  const unsigned l = blockIdx.x - boxes.first[b], rest = l / boxes.blocks_x[b];
  const unsigned bx = l - rest * boxes.blocks_x[b], bz = rest / boxes.blocks_y[b], by = rest - bz * boxes.blocks_y[b];
  const NodeRange& r = boxes.box[b];
  const int i = static_cast<int>(r.i0) + static_cast<int>(bx * blockDim.x + threadIdx.x);
  const int j = static_cast<int>(r.j0) + static_cast<int>(by * blockDim.y + threadIdx.y);
  const int k = static_cast<int>(r.k0) + static_cast<int>(bz * blockDim.z + threadIdx.z);
  if (i >= r.i1 || j >= r.j1 || k >= r.k1) return;
  sweep_node<Real, UpdateH, true, 7>(FieldPointers<Real>{ex, ey, ez, hx, hy, hz}, material_class, phases, L, cpml, i, j,
                                     k);
}

// Register caps of the shell kernels (__launch_bounds__(256, MinBlocks): 65536 / (256 MinBlocks)
// registers): the y and z boxes' kernels fit MinBlocks 4 without spills in float, and more blocks
// for them (fewer registers) run slower; the x boxes' kernel runs faster capped than uncapped
// (docs/performance.md#cpml-split). Float has no x boxes (kWholeRows); double's x boxes take
// MinBlocks 5, the most without spills.
template <typename Real>
constexpr int kXBoxMinBlocks = sizeof(Real) == 4 ? 6 : 5;
constexpr int kShellMinBlocks = 4;

// The plain box of the split CPML sweep starts and ends on 128-byte lines: with its x bounds only
// on 32-byte sectors the plain kernel runs far below its aligned speed.
Index cpml_split_align(std::size_t element_size) { return static_cast<Index>(128 / element_size); }

// Threads per block of a narrow shell box (the x boxes): with the pair of x boxes side by side in
// the grid (sweep), the blocks dispatched together touch the end of one row and the start of the
// next, close in memory.
constexpr unsigned kNarrowShellThreads = 64;

// The smallest CPML shell, in nodes, whose boxes a bulk sweep runs on the shell stream (see
// CudaEngine::sweep): below it the fork and join cost more than the overlap gains
// (docs/performance.md#cpml-split). CudaEngineOptions::shell_fork_nodes overrides it in tests.
constexpr Index kShellForkNodes = Index(1) << 22;

// Forked shells (see CudaEngine::sweep) cut their z and y boxes into single-axis cores and strips
// (cpml_split's cores): the cores take fewer registers than the whole boxes. Small shells, swept
// in line, keep the whole boxes, which are faster there (docs/performance.md#cpml-split).
//
// A CPML sweep's plain kernel takes whole rows, x faces included (cpml_split's whole_rows), in
// float: the plain kernel then still fits its register budget, and a warp that meets an x face
// takes the CPML path. In double that kernel would need more registers and run slower, so double
// keeps the x boxes 32 nodes wide beside it.
template <typename Real>
constexpr bool kWholeRows = sizeof(Real) == 4;

bool same_shape(dim3 a, dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
// Whether boxes a and b span the same nodes along the two axes other than `axis`.
bool same_across(const NodeRange& a, const NodeRange& b, int axis) {
  return (axis == 0 || (a.i0 == b.i0 && a.i1 == b.i1)) && (axis == 1 || (a.j0 == b.j0 && a.j1 == b.j1)) &&
         (axis == 2 || (a.k0 == b.k0 && a.k1 == b.k1));
}

// The x boxes of the shell are a few nodes wide: a block as wide as the box (rounded up to a
// power of two) and kNarrowShellThreads threads or more, so that warps are not mostly idle.
dim3 shell_block(const NodeRange& box) {
  const unsigned width = static_cast<unsigned>(box.i1 - box.i0);
  if (width >= kSweepBlock.x) return kSweepBlock;
  unsigned x = 1;
  while (x < width) x *= 2;
  return dim3(x, std::max(kNarrowShellThreads, x) / x, 1);
}

// Launches the strips of a split with cores on `on`, by block shape, kStripBoxes to a launch (in the
// order of their first strip), and empties `strips`.
template <typename Real, bool UpdateH>
void launch_strips(bool dependent, cudaStream_t on, const SweepOperands<Real>& o, const CpmlView<Real>& cpml,
                   std::vector<NodeRange>& strips) {
  const FieldPointers<Real>& f = o.f;
  std::vector<bool> done(strips.size(), false);
  for (std::size_t s0 = 0; s0 < strips.size(); ++s0) {
    if (done[s0]) continue;
    const dim3 shape = shell_block(strips[s0]);
    StripBoxes list;
    const auto flush = [&] {
      if (list.count == 0) return;
      launch_kernel(dependent, yee_strip_kernel<Real, UpdateH, kShellMinBlocks>, list.first[list.count], shape, on,
                    f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, o.material_class, o.phases, o.layout, list, cpml);
      list = StripBoxes{};
    };
    for (std::size_t s1 = s0; s1 < strips.size(); ++s1) {
      const NodeRange& strip = strips[s1];
      if (done[s1] || !same_shape(shell_block(strip), shape)) continue;
      done[s1] = true;
      const int q = list.count++;
      list.box[q] = strip;
      list.blocks_x[q] = blocks(strip.i1 - strip.i0, shape.x);
      list.blocks_y[q] = blocks(strip.j1 - strip.j0, shape.y);
      list.first[q + 1] = list.first[q] + list.blocks_x[q] * list.blocks_y[q] * blocks(strip.k1 - strip.k0, shape.z);
      if (list.count == kStripBoxes) flush();
    }
    flush();
  }
  strips.clear();
}

}  // namespace
}  // namespace yeex
