// The sources and probes of the cuda engine on the device: the recorded steps' cursor, the sources
// an E sweep folds in (SourceFold), and the kernels that add sources and sample probes. Included by
// cuda_engine.cu's translation unit only.
#pragma once

#include <cstdint>

#include "kernels/cuda/launch.cuh"
#include "kernels/engine.hpp"

namespace yeex {
namespace {

// The cursor of recorded steps (Engine::set_cursor): the step whose source samples the next
// inject_sources_at_cursor() adds, and the probe slot the next sample_probes_at_cursor() fills.
struct Cursor {
  Index step, slot;
};

// The sources one E sweep launch folds in (Engine::fold_sources; CudaEngine::take_fold): up to
// kFoldSources, in the order of their index, which keeps the order of sources that share a node
// (their rounds). Each is added by the thread that updated its node, right after its store, as
// inject_sources_kernel adds it after the sweep: the same value read, the same arithmetic.
constexpr int kFoldSources = 4;
template <typename Real>
struct SourceFold {
  int count = 0;  // 0: the launch folds nothing
  Index offset[kFoldSources] = {};
  Component component[kFoldSources] = {};
  Real coefficient[kFoldSources] = {};
  int column[kFoldSources] = {};  // the source's index: its column of the samples
  const Real* samples = nullptr;  // the step's row; with a cursor, row 0 (the cursor's step picks the row)
  const Cursor* cursor = nullptr;
  int row = 0;  // samples a row: the engine's sources
};

// Adds the folded sources whose node lies in [c, c + nodes), the nodes this thread stored.
template <typename Real>
__device__ __forceinline__ void add_folded_sources(const SourceFold<Real>& fold, const FieldPointers<Real>& f, Index c,
                                                   int nodes) {
  for (int q = 0; q < fold.count; ++q) {
    if (fold.offset[q] < c || fold.offset[q] >= c + nodes) continue;
    const Real* samples = fold.cursor ? fold.samples + fold.cursor->step * fold.row : fold.samples;
    add_source(component_array(f, fold.component[q])[fold.offset[q]], fold.coefficient[q], samples[fold.column[q]]);
  }
}

// samples: the step's row; or, with a cursor, row 0 of the table (the cursor's step picks the row).
// `folded`: a bit for each of the first 32 sources that an E sweep of the step already added
// (SourceFold).
template <typename Real>
__global__ void inject_sources_kernel(FieldPointers<Real> f, const PointSource* sources, int count, const Real* samples,
                                      int round, const Cursor* cursor, unsigned folded) {
  follow_previous_kernel();
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= count || sources[s].round != round || (s < 32 && (folded >> s & 1u))) return;
  if (cursor) samples += cursor->step * count;
  Real* fields[3] = {f.ex, f.ey, f.ez};
  const PointSource src = sources[s];
  add_source(fields[static_cast<int>(src.component)][src.offset], static_cast<Real>(src.coefficient), samples[s]);
}

template <typename Real>
__device__ __forceinline__ Real probe_value(FieldPointers<Real> f, const ProbePoint& probe) {
  const Real* fields[6] = {f.ex, f.ey, f.ez, f.hx, f.hy, f.hz};
  return fields[static_cast<int>(probe.component)][probe.offset];
}

template <typename Real>
__global__ void sample_probes_kernel(FieldPointers<Real> f, const ProbePoint* probes, int count, Real* out) {
  follow_previous_kernel();
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < count) out[p] = probe_value(f, probes[p]);
}

// One block: every probe into the cursor's slot, then the cursor one step and one slot on.
template <typename Real>
__global__ void sample_probes_at_cursor_kernel(FieldPointers<Real> f, const ProbePoint* probes, int count, Real* buffer,
                                               Cursor* cursor) {
  follow_previous_kernel();
  Real* out = buffer + cursor->slot * count;
  for (int p = threadIdx.x; p < count; p += blockDim.x) out[p] = probe_value(f, probes[p]);
  __syncthreads();
  if (threadIdx.x == 0) ++cursor->step, ++cursor->slot;
}

__global__ void set_cursor_kernel(Cursor* cursor, Index step, Index slot) {
  follow_previous_kernel();
  *cursor = {step, slot};
}

}  // namespace
}  // namespace yeex
