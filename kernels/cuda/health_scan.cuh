// The cuda engine's health check (Engine::fields_finite): one scan of the six field arrays for a
// value that is not finite. Included by cuda_engine.cu's translation unit only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/engine.hpp"

namespace yeex {
namespace {

// Sets *flag when an element of a component's array [0, n) is not finite (the health check,
// Engine::fields_finite): blockIdx.y picks the component, 16-byte loads in a grid-stride loop.
template <typename Real>
__global__ void flag_non_finite_kernel(FieldPointers<Real> f, std::size_t n, unsigned* flag) {
  using Vector = std::conditional_t<sizeof(Real) == 4, float4, double2>;
  constexpr std::size_t kLanes = sizeof(Vector) / sizeof(Real);
  const Real* arrays[kComponentCount] = {f.ex, f.ey, f.ez, f.hx, f.hy, f.hz};
  const Real* a = arrays[blockIdx.y];
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x,
                    stride = std::size_t(gridDim.x) * blockDim.x;
  const Vector* vectors = reinterpret_cast<const Vector*>(a);  // cudaMalloc's alignment
  bool finite = true;
  for (std::size_t v = first; v < n / kLanes; v += stride) {
    const Vector x = vectors[v];
    if constexpr (kLanes == 4)
      finite &= isfinite(x.x) & isfinite(x.y) & isfinite(x.z) & isfinite(x.w);
    else
      finite &= isfinite(x.x) & isfinite(x.y);
  }
  for (std::size_t e = n / kLanes * kLanes + first; e < n; e += stride) finite &= isfinite(a[e]);
  if (!__syncthreads_and(finite) && threadIdx.x == 0) atomicOr(flag, 1u);
}

// The scan of the six arrays of n elements on `stream`: sets *flag where one holds a value that is
// not finite (the caller zeroes it first).
template <typename Real>
void launch_non_finite_scan(int device, cudaStream_t stream, const FieldPointers<Real>& f, std::size_t n,
                            unsigned* flag) {
  int sms = 0;
  YEEX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const dim3 grid(static_cast<unsigned>(std::max(1, 8 * sms / kComponentCount)), kComponentCount);
  flag_non_finite_kernel<Real><<<grid, 256, 0, stream>>>(f, n, flag);
  YEEX_CUDA(cudaGetLastError());
}

}  // namespace
}  // namespace yeex
