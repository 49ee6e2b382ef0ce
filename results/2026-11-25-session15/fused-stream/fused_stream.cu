// Prototype (fifteenth session): a fused, z-streamed Yee step against the two-pass step, one GPU,
// PEC box, float. Not part of the build.
//
// Two-pass (as the engine): an H sweep, then an E sweep, in place, one node per thread:
// kernels/yee_stencil.hpp's update_h_cell and update_e_cell.
// Fused: fields in two buffers, old (E^n, H^{n-1/2}) and new (E^{n+1}, H^{n+1/2}); a block of 32 x
// TY threads owns a tile of 31 x (TY R - 1) nodes (R nodes a thread) and a segment of planes and
// walks the planes upwards, H^{n+1/2} on
// plane k then E^{n+1} on plane k. E on a node needs H^{n+1/2} on the node, at -x and -y (shared
// memory: the block's threads cover the tile and a one-node halo at -x and -y, whose H they compute
// again), and on the plane below (the thread's register; a segment's first thread recomputes the
// plane below it). Everything is read from the old buffer, which no block writes: no block waits
// for another. The arithmetic is update_h_cell's and update_e_cell's, operation for operation.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 -I<repo> fused_stream.cu -o fused_stream
//   fused_stream N_CHECK N_TIME SEGMENT [CASE]   (sizes in the code; CASE: a part of a label)
// The cases (main): "fused" (one node a thread, each plane's loads at its start), "prefetch" (the
// next plane's loads first), "rows" (R nodes a thread), "async" (planes staged in shared memory by
// cp.async), "flags" (row flags instead of the block barrier); their shape and register budget.
// Results: results/2026-11-25-session15/README.md, section 5.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/yee_stencil.hpp"

using namespace yeex;
using Real = float;

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));         \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

struct Grid {
  int nx, ny, nz;
  Index sy, sz, origin;  // offset(i, j, k) = origin + i + j sy + k sz; 32 nodes of margin a side in x
  Index elements;
  __host__ __device__ Index offset(int i, int j, int k) const { return origin + i + j * sy + k * sz; }
};

Grid make_grid(int nx, int ny, int nz) {
  Grid g{nx, ny, nz};
  g.sy = nx + 64;
  g.sz = g.sy * (ny + 40);
  g.origin = 32 + 8 * g.sy + 1 * g.sz;
  g.elements = g.sz * (nz + 2);
  return g;
}

// Two-pass.
__global__ void h_sweep(FieldPointers<Real> f, const std::uint8_t* cls, const CellCoefficients<Real>* classes, Grid g) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i >= g.nx || j >= g.ny) return;
  const Index c = g.offset(i, j, k);
  update_h_cell(f, c, g.sy, g.sz, classes[cls[c]]);
}
__global__ void e_sweep(FieldPointers<Real> f, const std::uint8_t* cls, const CellCoefficients<Real>* classes, Grid g) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i >= g.nx || j >= g.ny) return;
  const Index c = g.offset(i, j, k);
  update_e_cell(f, c, g.sy, g.sz, classes[cls[c]]);
}

// h_cell_update's arithmetic on loaded values: h_old = H^{n-1/2} on the node, e = E^n on it, the
// rest E^n on its neighbours (up_y: at +y, up_x: at +x, up_z: on the node above). h_arithmetic loads
// the in-plane neighbours itself.
__device__ __forceinline__ void h_core(const CellCoefficients<Real>& m, const Real e[3], Real ex_up_y, Real ey_up_x,
                                       Real ez_up_x, Real ez_up_y, Real ex_up_z, Real ey_up_z, const Real h_old[3],
                                       Real h[3]) {
  const Real d00 = ey_up_x - e[1], d01 = ez_up_x - e[2];
  const Real d10 = ez_up_y - e[2], d11 = ex_up_y - e[0];
  const Real d20 = ex_up_z - e[0], d21 = ey_up_z - e[1];
  const Real curl_x = fused(m.h_curl_a[0], d10, -(m.h_curl_b[0] * d21));
  const Real curl_y = fused(m.h_curl_a[1], d20, -(m.h_curl_b[1] * d01));
  const Real curl_z = fused(m.h_curl_a[2], d00, -(m.h_curl_b[2] * d11));
  h[0] = fused(m.h_decay[0], h_old[0], -curl_x);
  h[1] = fused(m.h_decay[1], h_old[1], -curl_y);
  h[2] = fused(m.h_decay[2], h_old[2], -curl_z);
}

__device__ __forceinline__ void h_arithmetic(const FieldPointers<Real>& o, Index c, const Grid& g,
                                             const CellCoefficients<Real>& m, const Real e[3], Real ex_up_z,
                                             Real ey_up_z, const Real h_old[3], Real h[3]) {
  h_core(m, e, o.ex[c + g.sy], o.ey[c + 1], o.ez[c + 1], o.ez[c + g.sy], ex_up_z, ey_up_z, h_old, h);
}

// H^{n+1/2} at node c (in the update range), everything from the old buffer; ex_up_z and ey_up_z
// are E^n on the node above.
__device__ __forceinline__ void h_values(const FieldPointers<Real>& o, Index c, const Grid& g,
                                         const CellCoefficients<Real>& m, Real ex, Real ey, Real ez, Real ex_up_z,
                                         Real ey_up_z, Real h[3]) {
  const Real e[3] = {ex, ey, ez}, h_old[3] = {o.hx[c], o.hy[c], o.hz[c]};
  h_arithmetic(o, c, g, m, e, ex_up_z, ey_up_z, h_old, h);
}

// e_cell_update's arithmetic, stored at node c of the new buffer: h = H^{n+1/2} on the node, s its
// plane's H in shared memory (the -x and -y neighbours at [row][col - 1] and [row - 1][col]),
// h_below on the node below, e = E^n on the node.
template <int Rows>
__device__ __forceinline__ void e_update(const FieldPointers<Real>& w, Index c, const CellCoefficients<Real>& m,
                                         const Real h[3], const Real (&s)[3][Rows][32], int row, int col,
                                         const Real h_below[3], const Real e[3]) {
  const Real hx_down_y = s[0][row - 1][col], hy_down_x = s[1][row][col - 1];
  const Real hz_down_x = s[2][row][col - 1], hz_down_y = s[2][row - 1][col];
  const Real d00 = h[1] - hy_down_x, d01 = h[2] - hz_down_x;
  const Real d10 = h[2] - hz_down_y, d11 = h[0] - hx_down_y;
  const Real d20 = h[0] - h_below[0], d21 = h[1] - h_below[1];
  const Real curl_x = fused(m.e_curl_a[0], d10, -(m.e_curl_b[0] * d21));
  const Real curl_y = fused(m.e_curl_a[1], d20, -(m.e_curl_b[1] * d01));
  const Real curl_z = fused(m.e_curl_a[2], d00, -(m.e_curl_b[2] * d11));
  w.ex[c] = fused(m.e_decay[0], e[0], curl_x);
  w.ey[c] = fused(m.e_decay[1], e[1], curl_y);
  w.ez[c] = fused(m.e_decay[2], e[2], curl_z);
}

// The fused step. A thread updates R nodes, TY rows of threads apart in y (the tile is 32 x TY R
// nodes, row 0 the halo): R nodes' loads in flight per thread, one barrier per plane for all.
// Prefetch: plane k + 1's loads from DRAM (E^n on the plane above it, H^{n-1/2}, the material
// class) are issued before plane k's work, so that their latency hides behind it; else at the start
// of plane k's. Flags (R = 1): no block barrier; a warp's E waits only for the warp below it to
// have put its H row in shared memory (row_ready), and a warp overwrites its row's buffer only once
// the warp above has read it (row_read): warps stay within two planes of their neighbours.
template <int TY, int R, int MinBlocks, bool Prefetch, bool Flags = false>
__global__ void __launch_bounds__(32 * TY, MinBlocks) fused_step(FieldPointers<Real> o, FieldPointers<Real> w,
                                                                      const std::uint8_t* cls,
                                                                      const CellCoefficients<Real>* classes, Grid g,
                                                                      int segment) {
  static_assert(R == 1 || !Flags);
  __shared__ Real shared_h[2][3][TY * R][32];
  __shared__ volatile int row_ready[TY], row_read[TY];  // planes (Flags)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = int(blockIdx.x) * 31 - 1 + tx, j0 = int(blockIdx.y) * (TY * R - 1) - 1;
  const int z0 = int(blockIdx.z) * segment, z1 = min(z0 + segment, g.nz);
  bool inside[R], owned[R];
  Real h_below[R][3], e[R][3], e_up[R][3], h_old[R][3];
  std::uint8_t material[R];
  const Index c0 = g.offset(i, j0 + ty, z0);  // row r: + r TY sy
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int j = j0 + ty + r * TY;
    inside[r] = i >= 0 && j >= 0 && i < g.nx && j < g.ny;
    owned[r] = inside[r] && tx > 0 && ty + r * TY > 0;
    const Index c = c0 + r * TY * g.sy;  // plane z0
    e[r][0] = o.ex[c], e[r][1] = o.ey[c], e[r][2] = o.ez[c];
    const Index b = c - g.sz;
    if (inside[r] && z0 > 0) {
      h_values(o, b, g, classes[cls[b]], o.ex[b], o.ey[b], o.ez[b], e[r][0], e[r][1], h_below[r]);
    } else {
      h_below[r][0] = o.hx[b], h_below[r][1] = o.hy[b], h_below[r][2] = o.hz[b];
    }
    e_up[r][0] = o.ex[c + g.sz], e_up[r][1] = o.ey[c + g.sz], e_up[r][2] = o.ez[c + g.sz];
    h_old[r][0] = o.hx[c], h_old[r][1] = o.hy[c], h_old[r][2] = o.hz[c];
    material[r] = cls[c];
  }
  if constexpr (Flags) {
    if (tx == 0) row_ready[ty] = z0 - 1, row_read[ty] = z0 - 1;
    __syncthreads();
  }
  for (int k = z0; k < z1; ++k) {
    const Index ck = c0 + Index(k - z0) * g.sz;
    Real next_e_up[R][3], next_h[R][3];
    std::uint8_t next_material[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const Index n = ck + r * TY * g.sy + g.sz;
      if (!Prefetch) {  // plane k's, now
        const Index c = n - g.sz;
        e_up[r][0] = o.ex[c + g.sz], e_up[r][1] = o.ey[c + g.sz], e_up[r][2] = o.ez[c + g.sz];
        h_old[r][0] = o.hx[c], h_old[r][1] = o.hy[c], h_old[r][2] = o.hz[c];
        material[r] = cls[c];
      }
      if (Prefetch && k + 1 < z1) {
        next_e_up[r][0] = o.ex[n + g.sz], next_e_up[r][1] = o.ey[n + g.sz], next_e_up[r][2] = o.ez[n + g.sz];
        next_h[r][0] = o.hx[n], next_h[r][1] = o.hy[n], next_h[r][2] = o.hz[n];
        next_material[r] = cls[n];
      } else {
        next_e_up[r][0] = next_e_up[r][1] = next_e_up[r][2] = next_h[r][0] = next_h[r][1] = next_h[r][2] = 0;
        next_material[r] = 0;
      }
    }
    Real h[R][3];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const Index c = ck + r * TY * g.sy;
      h[r][0] = h_old[r][0], h[r][1] = h_old[r][1], h[r][2] = h_old[r][2];
      if (inside[r]) {
        h_arithmetic(o, c, g, classes[material[r]], e[r], e_up[r][0], e_up[r][1], h_old[r], h[r]);
        if (owned[r]) w.hx[c] = h[r][0], w.hy[c] = h[r][1], w.hz[c] = h[r][2];
      }
      Real(&s)[3][TY * R][32] = shared_h[k & 1];
      if (Flags && ty + 1 < TY)
        while (row_read[ty + 1] < k - 2) {
        }
      s[0][ty + r * TY][tx] = h[r][0], s[1][ty + r * TY][tx] = h[r][1], s[2][ty + r * TY][tx] = h[r][2];
    }
    if constexpr (Flags) {
      __syncwarp();
      __threadfence_block();
      if (tx == 0) row_ready[ty] = k;
      if (ty > 0) {
        while (row_ready[ty - 1] < k) {
        }
        __threadfence_block();
      }
    } else {
      __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      if (owned[r])
        e_update(w, ck + r * TY * g.sy, classes[material[r]], h[r], shared_h[k & 1], ty + r * TY, tx, h_below[r], e[r]);
#pragma unroll
      for (int d = 0; d < 3; ++d) {
        h_below[r][d] = h[r][d];
        e[r][d] = e_up[r][d];
        e_up[r][d] = next_e_up[r][d];
        h_old[r][d] = next_h[r][d];
      }
      material[r] = next_material[r];
    }
    if (Flags && ty > 0) {
      __syncwarp();
      if (tx == 0) row_read[ty] = k;
    }
  }
}

// The fused step with the planes staged in shared memory by asynchronous copies (cp.async), two
// planes ahead: 32 x 32 threads, one node each. Stage p (in ring slot (p + 1) % 4) holds E^n on plane
// p + 1 over the tile and one node more at +x and +y (33 x 33), and H^{n-1/2} on plane p (32 x 32);
// plane k's work reads E on k from stage k - 1 and the rest from stage k. The copies are in flight
// without registers; the material class (a byte: no 4-byte copy) is prefetched into registers.
constexpr int kStagedE = 33 * 33;
constexpr int kStage = 3 * kStagedE + 3 * 1024;  // floats
constexpr std::size_t kAsyncShared = (4 * kStage + 2 * 3 * 1024) * sizeof(Real);

__global__ void __launch_bounds__(1024, 1) fused_step_async(FieldPointers<Real> o, FieldPointers<Real> w,
                                                            const std::uint8_t* cls,
                                                            const CellCoefficients<Real>* classes, Grid g,
                                                            int segment) {
  extern __shared__ Real staged[];  // [4][kStage], then the planes' new H [2][3][32][32]
  auto new_h = reinterpret_cast<Real(*)[3][32][32]>(staged + 4 * kStage);
  const int tx = threadIdx.x, ty = threadIdx.y, thread = ty * 32 + tx;
  const int i0 = int(blockIdx.x) * 31 - 1, j0 = int(blockIdx.y) * 31 - 1;  // the halo node
  const int i = i0 + tx, j = j0 + ty;
  const int z0 = int(blockIdx.z) * segment, z1 = min(z0 + segment, g.nz);
  const bool inside = i >= 0 && j >= 0 && i < g.nx && j < g.ny;
  const bool owned = inside && tx > 0 && ty > 0;
  auto stage = [&](int p) {  // plane p <= z1 - 1, else an empty group
    if (p < z1) {
      Real* s = staged + ((p + 1) & 3) * kStage;
      for (int e = thread; e < kStagedE; e += 1024) {
        const Index from = g.offset(i0 + e % 33, j0 + e / 33, p + 1);
        __pipeline_memcpy_async(s + e, o.ex + from, sizeof(Real));
        __pipeline_memcpy_async(s + kStagedE + e, o.ey + from, sizeof(Real));
        __pipeline_memcpy_async(s + 2 * kStagedE + e, o.ez + from, sizeof(Real));
      }
      const Index from = g.offset(i, j, p);
      __pipeline_memcpy_async(s + 3 * kStagedE + thread, o.hx + from, sizeof(Real));
      __pipeline_memcpy_async(s + 3 * kStagedE + 1024 + thread, o.hy + from, sizeof(Real));
      __pipeline_memcpy_async(s + 3 * kStagedE + 2048 + thread, o.hz + from, sizeof(Real));
    }
    __pipeline_commit();
  };
  Index c = g.offset(i, j, z0 - 1);
  Real h_below[3];
  if (inside && z0 > 0) {
    h_values(o, c, g, classes[cls[c]], o.ex[c], o.ey[c], o.ez[c], o.ex[c + g.sz], o.ey[c + g.sz], h_below);
  } else {
    h_below[0] = o.hx[c], h_below[1] = o.hy[c], h_below[2] = o.hz[c];
  }
  stage(z0 - 1);
  stage(z0);
  stage(z0 + 1);
  c += g.sz;  // plane z0
  std::uint8_t material = cls[c], next_material = z0 + 1 < z1 ? cls[c + g.sz] : 0;
  for (int k = z0; k < z1; ++k, c += g.sz) {
    __pipeline_wait_prior(1);  // stages up to k have landed (this thread's copies)
    __syncthreads();           // ... everyone's; and stage k - 2's slot is free
    stage(k + 2);
    const std::uint8_t after_next = k + 2 < z1 ? cls[c + 2 * g.sz] : 0;
    const Real* plane = staged + (k & 3) * kStage;        // E^n on plane k
    const Real* above = staged + ((k + 1) & 3) * kStage;  // E^n on k + 1, H^{n-1/2} on k
    const int at = ty * 33 + tx;
    const Real e[3] = {plane[at], plane[kStagedE + at], plane[2 * kStagedE + at]};
    const CellCoefficients<Real>& m = classes[material];
    Real h[3] = {above[3 * kStagedE + thread], above[3 * kStagedE + 1024 + thread], above[3 * kStagedE + 2048 + thread]};
    if (inside) {
      const Real h_old[3] = {h[0], h[1], h[2]};
      h_core(m, e, plane[at + 33], plane[kStagedE + at + 1], plane[2 * kStagedE + at + 1], plane[2 * kStagedE + at + 33],
             above[at], above[kStagedE + at], h_old, h);
      if (owned) w.hx[c] = h[0], w.hy[c] = h[1], w.hz[c] = h[2];
    }
    Real(&s)[3][32][32] = new_h[k & 1];
    s[0][ty][tx] = h[0], s[1][ty][tx] = h[1], s[2][ty][tx] = h[2];
    __syncthreads();
    if (owned) e_update(w, c, m, h, s, ty, tx, h_below, e);
    h_below[0] = h[0], h_below[1] = h[1], h_below[2] = h[2];
    material = next_material;
    next_material = after_next;
  }
}

struct Buffers {
  FieldPointers<Real> f{};
  void allocate(const Grid& g) {
    for (Real** a : {&f.ex, &f.ey, &f.ez, &f.hx, &f.hy, &f.hz}) {
      CHECK(cudaMalloc(a, g.elements * sizeof(Real)));
      CHECK(cudaMemset(*a, 0, g.elements * sizeof(Real)));
    }
  }
  void copy_from(const Buffers& b, const Grid& g) {
    Real* const to[] = {f.ex, f.ey, f.ez, f.hx, f.hy, f.hz};
    Real* const from[] = {b.f.ex, b.f.ey, b.f.ez, b.f.hx, b.f.hy, b.f.hz};
    for (int a = 0; a < 6; ++a) CHECK(cudaMemcpy(to[a], from[a], g.elements * sizeof(Real), cudaMemcpyDeviceToDevice));
  }
  void release() {
    for (Real* a : {f.ex, f.ey, f.ez, f.hx, f.hy, f.hz}) cudaFree(a);
  }
};

struct Model {
  Grid g;
  std::uint8_t* cls = nullptr;
  CellCoefficients<Real>* classes = nullptr;
  Buffers start;
};

// A box with PEC faces (class 2: every coefficient 0 on the outer planes), a dielectric block
// (class 1) over the middle third, vacuum-like class 0; random fields inside.
Model make_model(int nx, int ny, int nz) {
  Model md;
  md.g = make_grid(nx, ny, nz);
  const Grid& g = md.g;
  std::vector<std::uint8_t> cls(g.elements, 2);
  for (int k = 1; k < nz - 1; ++k)
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const bool block = i >= nx / 3 && i < 2 * nx / 3 && j >= ny / 3 && j < 2 * ny / 3 && k >= nz / 3 && k < 2 * nz / 3;
        cls[g.offset(i, j, k)] = block ? 1 : 0;
      }
  CellCoefficients<Real> c[3] = {};
  for (int d = 0; d < 3; ++d) {
    c[0].e_decay[d] = 1, c[0].e_curl_a[d] = 0.3f + 0.01f * d, c[0].e_curl_b[d] = 0.31f - 0.01f * d;
    c[0].h_decay[d] = 1, c[0].h_curl_a[d] = 0.29f + 0.02f * d, c[0].h_curl_b[d] = 0.33f - 0.02f * d;
    c[1] = c[0];
    c[1].e_decay[d] = 0.97f, c[1].e_curl_a[d] = 0.11f, c[1].e_curl_b[d] = 0.12f;
  }
  CHECK(cudaMalloc(&md.cls, g.elements));
  CHECK(cudaMemcpy(md.cls, cls.data(), g.elements, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&md.classes, sizeof c));
  CHECK(cudaMemcpy(md.classes, c, sizeof c, cudaMemcpyHostToDevice));
  md.start.allocate(g);
  std::vector<Real> v(g.elements, 0);
  std::uint64_t x = 88172645463325252ull;
  for (Real* a : {md.start.f.ex, md.start.f.ey, md.start.f.ez, md.start.f.hx, md.start.f.hy, md.start.f.hz}) {
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          v[g.offset(i, j, k)] = Real((x >> 11) * 0x1.0p-53) - 0.5f;
        }
    CHECK(cudaMemcpy(a, v.data(), g.elements * sizeof(Real), cudaMemcpyHostToDevice));
  }
  return md;
}

void two_pass(const Model& md, Buffers& b, int steps) {
  const Grid& g = md.g;
  const dim3 block(32, 8), grid((g.nx + 31) / 32, (g.ny + 7) / 8, g.nz);
  for (int s = 0; s < steps; ++s) {
    h_sweep<<<grid, block>>>(b.f, md.cls, md.classes, g);
    e_sweep<<<grid, block>>>(b.f, md.cls, md.classes, g);
  }
}

int async_steps(const Model& md, Buffers (&b)[2], int steps, int segment) {
  const Grid& g = md.g;
  CHECK(cudaFuncSetAttribute(fused_step_async, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kAsyncShared)));
  const dim3 block(32, 32), grid((g.nx + 1 + 30) / 31, (g.ny + 1 + 30) / 31, (g.nz + segment - 1) / segment);
  int at = 0;
  for (int s = 0; s < steps; ++s, at ^= 1)
    fused_step_async<<<grid, block, kAsyncShared>>>(b[at].f, b[at ^ 1].f, md.cls, md.classes, g, segment);
  return at;
}

template <int TY, int R, int MinBlocks, bool Prefetch, bool Flags = false>
int fused_steps(const Model& md, Buffers (&b)[2], int steps, int segment) {
  if constexpr (TY == 0) {  // the async case's marker
    return async_steps(md, b, steps, segment);
  } else {
    const Grid& g = md.g;
    const dim3 block(32, TY), grid((g.nx + 1 + 30) / 31, (g.ny + 1 + TY * R - 2) / (TY * R - 1), (g.nz + segment - 1) / segment);
    int at = 0;
    for (int s = 0; s < steps; ++s, at ^= 1)
      fused_step<TY, R, MinBlocks, Prefetch, Flags><<<grid, block>>>(b[at].f, b[at ^ 1].f, md.cls, md.classes, g, segment);
    return at;  // the buffer holding the result
  }
}

long long mismatches(const Grid& g, const Buffers& a, const Buffers& b) {
  std::vector<Real> x(g.elements), y(g.elements);
  long long bad = 0;
  const Real* const fa[] = {a.f.ex, a.f.ey, a.f.ez, a.f.hx, a.f.hy, a.f.hz};
  const Real* const fb[] = {b.f.ex, b.f.ey, b.f.ez, b.f.hx, b.f.hy, b.f.hz};
  for (int c = 0; c < 6; ++c) {
    CHECK(cudaMemcpy(x.data(), fa[c], g.elements * sizeof(Real), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), fb[c], g.elements * sizeof(Real), cudaMemcpyDeviceToHost));
    for (int k = -1; k <= g.nz; ++k)
      for (int j = -1; j <= g.ny; ++j)
        for (int i = -1; i <= g.nx; ++i) {
          const Index o = g.offset(i, j, k);
          if (std::memcmp(&x[o], &y[o], sizeof(Real)) != 0) ++bad;
        }
  }
  return bad;
}

template <typename F>
double ms_per_step(F run, int steps) {
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  run(2);  // warm-up
  CHECK(cudaEventRecord(t0));
  run(steps);
  CHECK(cudaEventRecord(t1));
  CHECK(cudaEventSynchronize(t1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, t0, t1));
  CHECK(cudaGetLastError());
  return ms / steps;
}

template <int TY, int R, int MinBlocks, bool Prefetch, bool Flags = false>
void check_and_time(const char* label, int check_steps, int time_steps, int segment) {
  {  // bits on an awkward grid
    Model md = make_model(97, 83, 71);
    Buffers ref, b[2];
    ref.allocate(md.g), b[0].allocate(md.g), b[1].allocate(md.g);
    ref.copy_from(md.start, md.g), b[0].copy_from(md.start, md.g), b[1].copy_from(md.start, md.g);
    two_pass(md, ref, check_steps);
    const int at = fused_steps<TY, R, MinBlocks, Prefetch, Flags>(md, b, check_steps, segment < 71 ? 16 : segment);
    CHECK(cudaDeviceSynchronize());
    std::printf("%s: bits after %d steps on 97 x 83 x 71: %lld nodes differ\n", label, check_steps,
                mismatches(md.g, ref, b[at]));
    ref.release(), b[0].release(), b[1].release(), md.start.release();
  }
  for (int n : {256, 512}) {
    Model md = make_model(n, n, n);
    Buffers b[2];
    b[0].allocate(md.g), b[1].allocate(md.g);
    b[0].copy_from(md.start, md.g), b[1].copy_from(md.start, md.g);
    const double cells = double(n) * n * n;
    const double two = ms_per_step([&](int s) { two_pass(md, b[0], s); }, time_steps);
    const double one = ms_per_step([&](int s) { fused_steps<TY, R, MinBlocks, Prefetch, Flags>(md, b, s, segment); }, time_steps);
    std::printf("%s %d^3 segment %d: two-pass %.3f ms/step %.2f Gcells/s; fused %.3f ms/step %.2f Gcells/s (x%.3f)\n",
                label, n, segment, two, cells / two * 1e-6, one, cells / one * 1e-6, two / one);
    b[0].release(), b[1].release(), md.start.release();
  }
}

int main(int argc, char** argv) {
  const int check_steps = argc > 1 ? std::atoi(argv[1]) : 7;
  const int time_steps = argc > 2 ? std::atoi(argv[2]) : 20;
  const int segment = argc > 3 ? std::atoi(argv[3]) : 64;
  const char* only = argc > 4 ? argv[4] : "";
  auto wanted = [&](const char* label) { return !*only || std::strstr(label, only); };
#define CASE(NAME, TY, R, MIN, PRE)                                                        \
  if (wanted(NAME))                                                                        \
    check_and_time<TY, R, MIN, PRE>(NAME, check_steps, time_steps, segment);
  // one node a thread, loads at the start of each plane
  CASE("fused 32x8 min1", 8, 1, 1, false) CASE("fused 32x8 min4", 8, 1, 4, false)
  CASE("fused 32x8 min6", 8, 1, 6, false) CASE("fused 32x8 min8", 8, 1, 8, false)
  CASE("fused 32x16 min1", 16, 1, 1, false) CASE("fused 32x16 min2", 16, 1, 2, false)
  CASE("fused 32x16 min3", 16, 1, 3, false) CASE("fused 32x16 min4", 16, 1, 4, false)
  CASE("fused 32x32 min1", 32, 1, 1, false) CASE("fused 32x32 min2", 32, 1, 2, false)
  // one node a thread, the next plane's loads first
  CASE("prefetch 32x8 min1", 8, 1, 1, true) CASE("prefetch 32x8 min3", 8, 1, 3, true)
  CASE("prefetch 32x8 min4", 8, 1, 4, true) CASE("prefetch 32x8 min5", 8, 1, 5, true)
  CASE("prefetch 32x8 min6", 8, 1, 6, true) CASE("prefetch 32x16 min1", 16, 1, 1, true)
  CASE("prefetch 32x16 min2", 16, 1, 2, true) CASE("prefetch 32x16 min3", 16, 1, 3, true)
  CASE("prefetch 32x32 min1", 32, 1, 1, true)
  // R nodes a thread
  CASE("rows 32x16x2 min1", 16, 2, 1, true) CASE("rows 32x16x2 min2", 16, 2, 2, true)
  CASE("rows 32x8x4 min2", 8, 4, 2, true) CASE("rows 32x8x4 min3", 8, 4, 3, true)
  CASE("rows 32x8x4 min4", 8, 4, 4, true) CASE("rows 32x32x2 min1", 32, 2, 1, true)
  CASE("rows 32x16x4 min1", 16, 4, 1, true) CASE("rows 32x8x2 min4", 8, 2, 4, true)
  // staged by asynchronous copies (fused_step_async; TY 0 marks it)
  CASE("async 32x32", 0, 1, 1, true)
  // row flags instead of the block barrier
#define FLAGS(NAME, TY, MIN)                                                                \
  if (wanted(NAME)) check_and_time<TY, 1, MIN, true, true>(NAME, check_steps, time_steps, segment);
  FLAGS("flags 32x32 min1", 32, 1) FLAGS("flags 32x16 min2", 16, 2) FLAGS("flags 32x8 min4", 8, 4)
  return 0;
}
