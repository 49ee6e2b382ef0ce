// The cuda engine's pushing sweeps (SweepPush in cuda_engine.hpp; the graph backend's): the kernel
// and its launch. Included by cuda_engine.cu's translation unit only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/cuda_engine.hpp"
#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/sweep_kernels.cuh"

namespace yeex {
namespace {

// The pushing sweep (SweepPush in cuda_engine.hpp), planes of blocks along z: the blocks of
// blockIdx.z = 0 come first from the block scheduler, so they take the pushed plane (with `top`
// the range's last plane, the others then its planes in order from the first). They wait before
// it, store each node's pushed components into the neighbour after its update, and the last of
// them signals. A wait that gave up (a stalled neighbour, PeerFlags) leaves the plane unswept and
// unsignalled: the run is an error by then, and the neighbours' waits stop at the abort bit.
// With Fold (E only) each thread adds the folded sources of its node before it pushes the node.
// Two forms: one node a thread and, where the plain sweep takes node pairs, pairs (Pairs), which
// are faster here as in the plain sweep (docs/performance.md#graph-pushing-limit).

// This block's plane of a pushing sweep over `box`; false where it is a pushing block whose wait
// gave up (the block's verdict through the barrier itself: shared memory would cost the kernel L1).
template <typename Real>
__device__ __forceinline__ bool pushing_sweep_plane(const SweepPush<Real>& push, const NodeRange& box, int& k) {
  const bool pushed = blockIdx.z == 0;
  k = static_cast<int>(push.top ? (pushed ? box.k1 - 1 : box.k0 + blockIdx.z - 1) : box.k0 + blockIdx.z);
  return !pushed || __syncthreads_and(threadIdx.x != 0 || threadIdx.y != 0 || await_counters(push.wait, false));
}

// A pushing block's end (every thread, after its stores into the neighbour): the last one signals.
template <typename Real>
__device__ __forceinline__ void end_pushing_block(const SweepPush<Real>& push) {
  if (arrive_last(push.signal.arrivals, gridDim.x * gridDim.y)) {
    signal(push.signal);
    consume_signals(push.wait);
  }
}

// Stores Width nodes from c of each pushed component into the neighbour (Width 2: one 8-byte
// store a component; the caller checks the alignment, SweepPush::shift even).
template <int Width, typename Real>
__device__ __forceinline__ void push_nodes(const SweepPush<Real>& push, const FieldPointers<Real>& f, Index c) {
  using Vector = std::conditional_t<Width == 2, float2, Real>;
  static_assert(Width == 1 || std::is_same_v<Real, float>, "pairs are float");
  for (int q = 0; q < push.components; ++q)
    *reinterpret_cast<Vector*>(push.to[q] + c + push.shift) =
        *reinterpret_cast<const Vector*>(component_array(f, push.component[q]) + c);
}

// Pairs: the pair kernel's blocks and update (float), one 8-byte store a pushed component.
template <typename Real, bool UpdateH, bool Fold = false, bool Pairs = false>
__global__ void __launch_bounds__(Pairs ? kPairLanes* kPairRows : 256, Pairs ? kPairMinBlocks : 0)
    yee_pushing_sweep_kernel(Real* __restrict__ ex, Real* __restrict__ ey, Real* __restrict__ ez, Real* __restrict__ hx,
                             Real* __restrict__ hy, Real* __restrict__ hz,
                             const std::uint8_t* __restrict__ material_class,
                             const PhaseCoefficients<Real>* __restrict__ phases, FieldLayout L, NodeRange box,
                             const __grid_constant__ SweepPush<Real> push,
                             const __grid_constant__ SourceFold<Real> fold) {
  static_assert(!Fold || !UpdateH, "sources fold into the E sweep only");
  static_assert(!Pairs || std::is_same_v<Real, float>, "pairs are float");
  follow_previous_kernel();
  int k = 0;
  if (!pushing_sweep_plane(push, box, k)) return;
  const FieldPointers<Real> f{ex, ey, ez, hx, hy, hz};
  if constexpr (Pairs) {
    const Index c = sweep_pair<UpdateH, Fold>(f, material_class, phases, L, box, k, fold);
    if (blockIdx.z != 0) return;
    if (c >= 0) push_nodes<2>(push, f, c);
  } else {
    const int i = static_cast<int>(box.i0) + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int j = static_cast<int>(box.j0) + static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    const bool inside = i < box.i1 && j < box.j1;
    if (inside) {
      sweep_node<Real, UpdateH, false, 0>(f, material_class, phases, L, CpmlView<Real>{}, i, j, k);
      if constexpr (Fold) add_folded_sources(fold, f, L.narrow_offset(i, j, k), 1);
    }
    if (blockIdx.z != 0) return;
    if (inside) push_nodes<1>(push, f, L.narrow_offset(i, j, k));
  }
  end_pushing_block(push);
}

// One launch of the pushing kernel over r (not empty), a plane of blocks a node plane: the Pairs
// form where the plain sweep takes pairs over r (`pairs`, CudaEngine::takes_pairs) and the pushed
// pairs' 8-byte stores are aligned too, else one node a thread; the Fold form where `fold` holds
// sources (E only).
template <typename Real, bool UpdateH>
void launch_pushing_sweep(bool dependent, cudaStream_t on, const SweepOperands<Real>& o, bool pairs, const NodeRange& r,
                          const SweepPush<Real>& push, const SourceFold<Real>& fold) {
  const FieldPointers<Real>& f = o.f;
  if constexpr (std::is_same_v<Real, float>)
    if (pairs && push.shift % 2 == 0) {
      const auto kernel = fold.count ? yee_pushing_sweep_kernel<float, false, true, true>
                                     : yee_pushing_sweep_kernel<float, UpdateH, false, true>;
      return launch_kernel(dependent, kernel, pair_grid(r), dim3(kPairLanes, kPairRows, 1), on, f.ex, f.ey, f.ez, f.hx,
                           f.hy, f.hz, o.material_class, o.phases, o.layout, r, push, fold);
    }
  const dim3 block(kSweepBlock.x, kSweepBlock.y, 1);
  const dim3 grid(blocks(r.i1 - r.i0, block.x), blocks(r.j1 - r.j0, block.y), static_cast<unsigned>(r.k1 - r.k0));
  const auto kernel =
      fold.count ? yee_pushing_sweep_kernel<Real, false, true> : yee_pushing_sweep_kernel<Real, UpdateH>;
  launch_kernel(dependent, kernel, grid, block, on, f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, o.material_class, o.phases,
                o.layout, r, push, fold);
}

}  // namespace
}  // namespace yeex
