// The cuda engine's TF/SF pass (kernels/tfsf.hpp): after a sweep, one thread a corrected node of
// the sweep's planes, those outside its range left alone. The step's table row comes from the
// step fold_sources opened, or from the cursor of recorded steps. Included by cuda_engine.cu's
// translation unit only.
#pragma once

#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/sources_probes.cuh"
#include "kernels/tfsf.hpp"

namespace yeex {
namespace {

// field 0: the E row (after the H sweep), 1: the H row (after the E sweep).
template <typename Real>
__global__ void tfsf_kernel(FieldPointers<Real> f, const TfsfNode* nodes, int count, const TfsfTerm<Real>* terms,
                            const Real* incident, Index width, int field, Index step, const Cursor* cursor,
                            FieldLayout layout, NodeRange range) {
  follow_previous_kernel();
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= count) return;
  const TfsfNode node = nodes[n];
  if (!tfsf_in_range(node.offset, layout.pitch_y, layout.pitch_z, layout.origin_x, layout.origin_y, layout.origin_z,
                     range))
    return;
  const Index s = cursor ? cursor->step : step;
  apply_tfsf_node(f, node, terms, incident + (2 * s + field) * width);
}

}  // namespace
}  // namespace yeex
