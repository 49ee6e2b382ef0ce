// The cuda engine's dispersion pass (kernels/dispersion.hpp): after an E sweep, the dispersive
// nodes of its range. A block per row of nodes with state (DispersiveRow), a thread per node and
// E component (threadIdx.y): the three components' updates are independent, so each thread has
// one chain of loads in flight instead of three in a row. The pole sets and the classes' set
// indices, read by every node, sit in shared memory (copied before the block waits for the
// kernels ahead: they never change). Included by cuda_engine.cu's translation unit only.
#pragma once

#include <cuda_runtime.h>

#include "kernels/cuda/launch.cuh"
#include "kernels/dispersion.hpp"
#include "kernels/field_layout.hpp"

namespace yeex {
namespace {

constexpr int kDispersionNodes = 128;  // threads along x (times 3 components)

__device__ __forceinline__ void prefetch_l1(const void* address) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(address));
}

// Rows [first, first + rows) of v (those of the range's planes); the nodes of r among them.
// Shared memory: `sets` pole sets, then 3 * `classes` set indices.
template <typename Real>
__global__ void __launch_bounds__(3 * kDispersionNodes, 4)
    dispersion_kernel(Real* ex, Real* ey, Real* ez, const std::uint8_t* classes, FieldLayout L, DispersionView<Real> v,
                      int sets, int class_count, Index first, Index rows, NodeRange r) {
  extern __shared__ __align__(16) unsigned char shared[];
  auto* set = reinterpret_cast<PoleSet<Real>*>(shared);
  auto* set_of = reinterpret_cast<std::int8_t*>(shared + sets * sizeof(PoleSet<Real>));
  const int thread = threadIdx.y * blockDim.x + threadIdx.x, threads = blockDim.x * blockDim.y;
  for (int w = thread; w < sets * int(sizeof(PoleSet<Real>) / sizeof(int)); w += threads)
    reinterpret_cast<int*>(set)[w] = reinterpret_cast<const int*>(v.set)[w];
  for (int w = thread; w < 3 * class_count; w += threads) set_of[w] = v.set_of[w];
  __syncthreads();
  follow_previous_kernel();
  const int c = threadIdx.y, states = v.states;
  Real* const e = c == 0 ? ex : c == 1 ? ey : ez;
  Real* const state = v.state + static_cast<Index>(c * states) * v.entries;
  const Index n = v.entries;
  for (Index q = first + blockIdx.x; q < first + rows; q += gridDim.x) {
    const DispersiveRow row = v.row[q];
    if (row.j < r.j0 || row.j >= r.j1) continue;
    const Index a = row.i0 > r.i0 ? row.i0 : r.i0;
    const Index b = row.i0 + row.count < r.i1 ? row.i0 + row.count : r.i1;
    // Two nodes a thread at once: both nodes' E and state slots are fetched into L1 while their
    // classes are on their way, so the update reads them without another trip to memory.
    for (Index i = a + threadIdx.x; i < b; i += 2 * blockDim.x) {
      const Index i2 = i + blockDim.x;
      const bool second = i2 < b;
      const Index offset = L.offset(i, row.j, row.k), offset2 = offset + blockDim.x;
      Real* const y = state + row.first + (i - row.i0);
      Real* const y2 = y + blockDim.x;
      prefetch_l1(e + offset);
      if (second) prefetch_l1(e + offset2);
      for (int s = 0; s < kMaxPoleStates; ++s)
        if (s < states) {
          prefetch_l1(y + s * n);
          if (second) prefetch_l1(y2 + s * n);
        }
      const int m = set_of[3 * classes[offset] + c];
      const int m2 = second ? set_of[3 * classes[offset2] + c] : -1;
      if (m >= 0) disperse_component(e[offset], set[m], y, n);
      if (m2 >= 0) disperse_component(e[offset2], set[m2], y2, n);
    }
  }
}

}  // namespace
}  // namespace yeex
