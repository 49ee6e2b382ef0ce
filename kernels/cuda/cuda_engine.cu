// The cuda engine. One thread per node, blocks of 64 x 2 nodes in (x, y) by default (the float
// sweeps of a run without CPML: two nodes per thread, yee_pair_sweep_kernel): x is the
// fastest index, so a warp reads 128 contiguous bytes of each array; the +-1 neighbours in y and
// z come from L1/L2 (a z-plane of all six components is a few MB at 512^2, well inside the L2).
// Coefficients come from a small class table in global memory (cached in L1), looked up
// through one byte per node, a phase's in 16-byte loads (PhaseCoefficients). Work goes to two
// streams per engine, one per Lane (bulk at low, border at high priority); a CPML run's sweeps are
// split into a plain and a CPML part (cpml_split, see sweep).
#include "kernels/cuda/cuda_engine.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <cstdlib>
#include <cstdio>
#include <mutex>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/node_pairs.cuh"

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
// shell boxes of a CPML run, the plain one the rest (cpml_split), with the register caps below
// (kXBoxMinBlocks, kShellMinBlocks). Coordinates and in-plane offsets are 32-bit, the slab
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

// Programmatic dependent launch (compute capability 9.0 and later; CudaEngine::launch_kernel): a
// kernel launched with it is scheduled as the blocks of the kernel ahead of it on its stream exit,
// without the gap of a launch that waits for that kernel's completion. Each engine kernel therefore
// first waits here until the kernels ahead of it have completed and their stores are visible (at
// once for a kernel launched without it; compiled to nothing for older architectures, where the
// engine launches plainly). None signals its dependents earlier (griddepcontrol.launch_dependents):
// executed by every block, that slows the large sweeps (docs/performance.md#dependent-launches).
__device__ __forceinline__ void follow_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

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
  update_node_pair<UpdateH>(f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, material_class, c, static_cast<int>(L.pitch_y),
                            L.pitch_z,
                            [phases](unsigned cls) { return phase_coefficients<float, UpdateH>(phases, cls); }, live);
  if (!live) return -1;
  if constexpr (Fold) add_folded_sources(fold, f, c, 2);
  return c;
}

// With Fold (E only), each live thread adds the folded sources of its pair's nodes.
template <bool UpdateH, bool Fold = false>
__global__ void __launch_bounds__(kPairLanes * kPairRows, kPairMinBlocks)
    yee_pair_sweep_kernel(float* __restrict__ ex, float* __restrict__ ey, float* __restrict__ ez, float* __restrict__ hx,
                          float* __restrict__ hy, float* __restrict__ hz, const std::uint8_t* __restrict__ material_class,
                          const PhaseCoefficients<float>* __restrict__ phases, FieldLayout L, NodeRange box,
                          const __grid_constant__ SourceFold<float> fold) {
  static_assert(!Fold || !UpdateH, "sources fold into the E sweep only");
  follow_previous_kernel();
  sweep_pair<UpdateH, Fold>(FieldPointers<float>{ex, ey, ez, hx, hy, hz}, material_class, phases, L, box,
                            static_cast<int>(box.k0) + static_cast<int>(blockIdx.z), fold);
}

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
__global__ void __launch_bounds__(Pairs ? kPairLanes * kPairRows : 256, Pairs ? kPairMinBlocks : 0)
    yee_pushing_sweep_kernel(Real* __restrict__ ex, Real* __restrict__ ey, Real* __restrict__ ez,
                             Real* __restrict__ hx, Real* __restrict__ hy, Real* __restrict__ hz,
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

// samples: the step's row; or, with a cursor, row 0 of the table (the cursor's step picks the row).
// `folded`: a bit for each of the first 32 sources that an E sweep of the step already added
// (SourceFold).
template <typename Real>
__global__ void inject_sources_kernel(FieldPointers<Real> f, const PointSource* sources, int count,
                                      const Real* samples, int round, const Cursor* cursor, unsigned folded) {
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

// Sets *flag when an element of a component's array [0, n) is not finite (the health check,
// Engine::fields_finite): blockIdx.y picks the component, 16-byte loads in a grid-stride loop.
template <typename Real>
__global__ void flag_non_finite_kernel(FieldPointers<Real> f, std::size_t n, unsigned* flag) {
  using Vector = std::conditional_t<sizeof(Real) == 4, float4, double2>;
  constexpr std::size_t kLanes = sizeof(Vector) / sizeof(Real);
  const Real* arrays[kComponentCount] = {f.ex, f.ey, f.ez, f.hx, f.hy, f.hz};
  const Real* a = arrays[blockIdx.y];
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x, stride = std::size_t(gridDim.x) * blockDim.x;
  const Vector* vectors = reinterpret_cast<const Vector*>(a);  // cudaMalloc's alignment
  bool finite = true;
  for (std::size_t v = first; v < n / kLanes; v += stride) {
    const Vector x = vectors[v];
    if constexpr (kLanes == 4) finite &= isfinite(x.x) & isfinite(x.y) & isfinite(x.z) & isfinite(x.w);
    else finite &= isfinite(x.x) & isfinite(x.y);
  }
  for (std::size_t e = n / kLanes * kLanes + first; e < n; e += stride) finite &= isfinite(a[e]);
  if (!__syncthreads_and(finite) && threadIdx.x == 0) atomicOr(flag, 1u);
}

// Milliseconds of each of `runs` calls of work(), which enqueues on `stream`, timed by CUDA events
// after `warmups` calls whose times are dropped.
template <typename Work>
std::vector<float> timed_runs_ms(cudaStream_t stream, int warmups, int runs, Work&& work) {
  cudaEvent_t start = nullptr, stop = nullptr;
  YEEX_CUDA(cudaEventCreate(&start));
  YEEX_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int run = 0; run < warmups + runs; ++run) {
    YEEX_CUDA(cudaEventRecord(start, stream));
    work();
    YEEX_CUDA(cudaEventRecord(stop, stream));
    YEEX_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    YEEX_CUDA(cudaEventElapsedTime(&t, start, stop));
    if (run >= warmups) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// Owned device allocation of n elements.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : n_(n) {
    if (n) YEEX_CUDA(cudaMalloc(&p_, n * sizeof(T)));
  }
  DeviceArray(const T* host, std::size_t n) : DeviceArray(n) {
    if (n) YEEX_CUDA(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() {
    if (p_) cudaFree(p_);
  }
  DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Block shape of the one-node sweeps, the plain box and the CPML shell boxes alike (narrow boxes
// see shell_block); see docs/performance.md#cpml-split.
constexpr dim3 kSweepBlock(64, 2, 1);

// Whether the float sweeps may take node pairs (yee_pair_sweep_kernel): every even node starts a
// pair's aligned load (the rows' first nodes and pitches are even).
bool pairs_fit(const FieldLayout& L) { return L.origin_x % 2 == 0 && L.pitch_y % 2 == 0; }

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

// Programmatic dependent launches (launch_kernel) where the device has them: compute capability
// 9.0 and later (docs/performance.md#dependent-launches); `wanted` false (a test seam) takes plain
// launches everywhere. The reason goes into the engine's choices.
// A kernel compiled like every engine kernel, whose attributes tell which code the device runs.
__global__ void dependent_launch_probe_kernel() { follow_previous_kernel(); }

bool dependent_launch(int device, bool wanted, std::string& why) {
  int major = 0, minor = 0;
  YEEX_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  YEEX_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const std::string cc = "compute capability " + std::to_string(major) + "." + std::to_string(minor);
  if (!wanted) {
    why = "plain launches (dependent launches turned off)";
    return false;
  }
  if (major < 9) {
    why = "plain launches (" + cc + ": dependent launches need 9.0)";
    return false;
  }
  // The kernels wait for the ones ahead of them only where they were compiled for 9.0 or later
  // (follow_previous_kernel): a binary that runs older code on this device, PTX for compute_80
  // compiled at load time say, must launch plainly, or a kernel could read what the one ahead of
  // it has not yet written.
  int current = -1;
  YEEX_CUDA(cudaGetDevice(&current));
  YEEX_CUDA(cudaSetDevice(device));
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, dependent_launch_probe_kernel);
  YEEX_CUDA(cudaSetDevice(current));
  YEEX_CUDA(status);
  if (attributes.ptxVersion < 90) {
    why = "plain launches (" + cc + ", but this binary's code for it is compiled for compute_" +
          std::to_string(attributes.ptxVersion) + ": dependent launches need code for 9.0)";
    return false;
  }
  why = "dependent launches (" + cc + ")";
  return true;
}

template <typename Real>
class CudaEngine final : public Engine<Real> {
 public:
  CudaEngine(const EngineSetup<Real>& setup, const CudaEngineOptions& options)
      : layout_(setup.layout), device_(setup.device), steps_(setup.steps),
        source_count_(static_cast<int>(setup.sources.size())), probe_count_(static_cast<int>(setup.probes.size())),
        probe_slots_(setup.probe_slots),
        fork_nodes_(options.shell_fork_nodes >= 0 ? options.shell_fork_nodes : kShellForkNodes),
        pairs_(options.node_pairs && pairs_fit(layout_)) {
    if (!layout_.narrow_planes())
      throw std::invalid_argument("cuda engine: a plane of " + std::to_string(layout_.pitch_z) +
                                  " elements; the sweep kernels take at most 2^31 - 1");
    if (const std::string why = cuda_device_unsupported(device_); !why.empty()) throw std::invalid_argument(why);
    if (options.arena_unit != 0 &&
        std::find(std::begin(kSlotUnits), std::end(kSlotUnits), options.arena_unit) == std::end(kSlotUnits))
      throw std::invalid_argument("cuda engine: a field arena slot unit of " + std::to_string(options.arena_unit) +
                                  " bytes; the units are 2, 32 and 1024 MiB");
    YEEX_CUDA(cudaSetDevice(device_));
    dependent_launch_ = dependent_launch(device_, options.dependent_launches, launch_choice_);
    int lowest = 0, highest = 0;
    YEEX_CUDA(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    YEEX_CUDA(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, lowest));
    YEEX_CUDA(cudaStreamCreateWithPriority(&border_stream_, cudaStreamNonBlocking, highest));
    // Above the bulk stream, below the border stream (lower numbers are higher priorities).
    YEEX_CUDA(cudaStreamCreateWithPriority(&shell_stream_, cudaStreamNonBlocking, std::min(highest + 1, lowest)));
    for (cudaEvent_t& e : marks_) YEEX_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    for (cudaEvent_t* e : {&shell_fork_, &shell_join_, &lane_fork_, &lane_join_})
      YEEX_CUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    for (cudaEvent_t& e : stamps_) YEEX_CUDA(cudaEventCreate(&e));
    const std::size_t n = layout_.elements();
    std::size_t trial_unit = 0;  // the arena's first unit, where choose_placement tries the others
    if (n * sizeof(Real) < kPlacementTrialBytes) {
      for (int c = 0; c < kComponentCount; ++c) {
        fields_[c] = DeviceArray<Real>(n);
        YEEX_CUDA(cudaMemset(fields_[c].get(), 0, n * sizeof(Real)));
        field_ptr_[c] = fields_[c].get();
      }
      material_class_ = DeviceArray<std::uint8_t>(setup.material_class.data(), setup.material_class.size());
      class_ptr_ = material_class_.get();
      placement_choice_ = "fields in an allocation each (below " + std::to_string(kPlacementTrialBytes >> 20) +
                          " MiB a field)";
    } else {
      const std::size_t fixed = options.arena_unit;
      arena_ = make_arena(fixed ? fixed : kSlotUnits[0]);
      YEEX_CUDA(cudaMemcpy(class_ptr_, setup.material_class.data(), n, cudaMemcpyHostToDevice));
      if (fixed)
        placement_choice_ = "field arena in " + slot_unit_name(fixed) + " slots (fixed by --arena-unit)";
      else
        trial_unit = kSlotUnits[0];
    }
    classes_ = DeviceArray<CellCoefficients<Real>>(setup.classes.data(), setup.classes.size());
    const std::vector<PhaseCoefficients<Real>> phases = phase_table(setup.classes);
    phases_ = DeviceArray<PhaseCoefficients<Real>>(phases.data(), phases.size());
    std::vector<PointSource> sources = setup.sources;
    source_rounds_ = number_rounds(sources);
    sources_ = DeviceArray<PointSource>(sources.data(), sources.size());
    host_sources_ = sources;
    samples_ = DeviceArray<Real>(setup.source_samples.data(), setup.source_samples.size());
    probes_ = DeviceArray<ProbePoint>(setup.probes.data(), setup.probes.size());
    probe_buffer_ = DeviceArray<Real>(setup.probes.size() * setup.probe_slots);
    cursor_ = DeviceArray<Cursor>(1);
    flag_ = DeviceArray<unsigned>(1);
    cpml_.faces = static_cast<int>(setup.cpml.size());
    for (std::size_t f = 0; f < setup.cpml.size(); ++f) {
      CpmlFace<Real>& face = cpml_.face[f] = setup.cpml[f].geometry;
      cpml_tables_[f] = DeviceArray<CpmlProfile<Real>>(setup.cpml[f].table.data(), setup.cpml[f].table.size());
      cpml_psi_[f] = DeviceArray<Real>(4 * face.box());
      YEEX_CUDA(cudaMemset(cpml_psi_[f].get(), 0, 4 * face.box() * sizeof(Real)));
      face.table = cpml_tables_[f].get();
      face.psi = cpml_psi_[f].get();
    }
    set_cpml_interior(cpml_);
    fold_sources_ = options.fold_sources && source_count_ > 0 && source_count_ <= 32 && cpml_.faces == 0;
    if (trial_unit) choose_placement(trial_unit);
  }
  ~CudaEngine() override {
    cudaSetDevice(device_);
    for (cudaStream_t s : {stream_, border_stream_, shell_stream_}) {
      cudaStreamSynchronize(s);
      cudaStreamDestroy(s);
    }
    for (cudaGraphExec_t g : recordings_) cudaGraphExecDestroy(g);
    for (cudaEvent_t e : marks_) cudaEventDestroy(e);
    for (cudaEvent_t e : {shell_fork_, shell_join_, lane_fork_, lane_join_}) cudaEventDestroy(e);
    for (cudaEvent_t e : stamps_) cudaEventDestroy(e);
  }

  std::string name() const override { return "cuda"; }
  // "dependent launches (compute capability 9.0); field arena in 2M slots (timed: ...); node pairs"
  std::string choices() const override {
    const bool pairs = std::is_same_v<Real, float> && cpml_.faces == 0 && pairs_;
    return launch_choice_ + "; " + placement_choice_ + "; " + (pairs ? "node pairs" : "one node a thread");
  }
  const FieldLayout& layout() const override { return layout_; }

  int device() const override { return device_; }

  void update_h(const NodeRange& r, Lane lane) override { sweep<true>(r, stream(lane)); }
  void update_e(const NodeRange& r, Lane lane) override { sweep<false>(r, stream(lane)); }

  void fold_sources(Index step) override { arm_fold(samples_.get() + step * source_count_, nullptr); }
  void fold_sources_at_cursor() override { arm_fold(samples_.get(), cursor_.get()); }
  void inject_sources(Index step) override { launch_sources(samples_.get() + step * source_count_, nullptr); }
  void inject_sources_at_cursor() override { launch_sources(samples_.get(), cursor_.get()); }

  void sample_probes(Index slot) override {
    if (probe_count_ == 0) return;
    YEEX_CUDA(cudaSetDevice(device_));
    launch_kernel(sample_probes_kernel<Real>, (probe_count_ + 127) / 128, 128, stream_, pointers(), probes_.get(),
                  probe_count_, probe_buffer_.get() + slot * probe_count_);
  }

  void sample_probes_at_cursor() override {
    YEEX_CUDA(cudaSetDevice(device_));
    const int threads = std::clamp((probe_count_ + 31) / 32 * 32, 32, 1024);
    launch_kernel(sample_probes_at_cursor_kernel<Real>, 1, threads, stream_, pointers(), probes_.get(), probe_count_,
                  probe_buffer_.get(), cursor_.get());
  }
  void set_cursor(Index step, Index slot) override {
    YEEX_CUDA(cudaSetDevice(device_));
    launch_kernel(set_cursor_kernel, 1, 1, stream_, cursor_.get(), step, slot);
  }

  // Recording: a CUDA graph captured from the border stream, the bulk stream forked into it at the
  // start and joined back at the end (the CPML shell stream joins and leaves through the sweep's
  // own events); the capture is this thread's alone (each GPU's thread records its own engine).
  bool can_record() const override { return true; }
  void record_begin() override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaStreamBeginCapture(border_stream_, cudaStreamCaptureModeThreadLocal));
    YEEX_CUDA(cudaEventRecord(lane_fork_, border_stream_));
    YEEX_CUDA(cudaStreamWaitEvent(stream_, lane_fork_, 0));
  }
  int record_end() override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(lane_join_, stream_));
    YEEX_CUDA(cudaStreamWaitEvent(border_stream_, lane_join_, 0));
    cudaGraph_t graph = nullptr;
    YEEX_CUDA(cudaStreamEndCapture(border_stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    // The kernels keep the priorities of the streams they were captured from (the border lane's
    // sweeps and pushes ahead of the bulk's), not the launch stream's for all.
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagUseNodePriority);
    cudaGraphDestroy(graph);
    YEEX_CUDA(made);
    recordings_.push_back(exec);
    return static_cast<int>(recordings_.size()) - 1;
  }
  void replay(int recording) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(lane_fork_, stream_));
    YEEX_CUDA(cudaStreamWaitEvent(border_stream_, lane_fork_, 0));
    YEEX_CUDA(cudaGraphLaunch(recordings_.at(static_cast<std::size_t>(recording)), border_stream_));
    YEEX_CUDA(cudaEventRecord(lane_join_, border_stream_));
    YEEX_CUDA(cudaStreamWaitEvent(stream_, lane_join_, 0));
  }

  void fetch_probes(Index slots, std::vector<Real>& out) override {
    out.resize(slots * probe_count_);
    if (out.empty()) return;
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaMemcpyAsync(out.data(), probe_buffer_.get(), out.size() * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }

  void copy_out(Component c, Index offset, Index count, Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(host, field(c) + offset, count * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  void copy_in(Component c, Index offset, Index count, const Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(field(c) + offset, host, count * sizeof(Real), cudaMemcpyHostToDevice, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  Real* field_data(Component c) override { return field(c); }
  // A stamp: the border lane joined into the bulk lane, then a timing event on the bulk lane.
  void stamp(int m) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(lane_join_, border_stream_));
    YEEX_CUDA(cudaStreamWaitEvent(stream_, lane_join_, 0));
    YEEX_CUDA(cudaEventRecord(stamps_.at(static_cast<std::size_t>(m)), stream_));
  }
  double seconds_between(int a, int b) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventSynchronize(stamps_.at(static_cast<std::size_t>(b))));
    float ms = 0;
    YEEX_CUDA(cudaEventElapsedTime(&ms, stamps_.at(static_cast<std::size_t>(a)), stamps_.at(static_cast<std::size_t>(b))));
    return 1e-3 * ms;
  }

  // One scan kernel over the six arrays on the bulk stream, one flag back.
  bool fields_finite() override {
    synchronize();
    YEEX_CUDA(cudaMemsetAsync(flag_.get(), 0, sizeof(unsigned), stream_));
    int sms = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device_));
    const dim3 grid(static_cast<unsigned>(std::max(1, 8 * sms / kComponentCount)), kComponentCount);
    flag_non_finite_kernel<Real><<<grid, 256, 0, stream_>>>(pointers(), layout_.elements(), flag_.get());
    YEEX_CUDA(cudaGetLastError());
    unsigned flag = 0;
    YEEX_CUDA(cudaMemcpyAsync(&flag, flag_.get(), sizeof flag, cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
    return flag == 0;
  }
  CpmlView<Real> cpml() const override { return cpml_; }
  void read_memory(const Real* from, Index count, Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(host, from, count * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  void write_memory(Real* to, Index count, const Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(to, host, count * sizeof(Real), cudaMemcpyHostToDevice, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  void* native_stream(Lane lane) override { return stream(lane); }
  void mark(Lane lane, int m) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(marks_.at(static_cast<std::size_t>(m)), stream(lane)));
  }
  void follow(Lane lane, int m) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaStreamWaitEvent(stream(lane), marks_.at(static_cast<std::size_t>(m)), 0));
  }
  void synchronize() override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaStreamSynchronize(border_stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }

  // SweepPush: one launch of the pushing kernel over r, a plane of blocks per node plane.
  template <bool UpdateH>
  void sweep_pushing(const NodeRange& r, const SweepPush<Real>& push) {
    if (cpml_.faces != 0) throw std::invalid_argument("cuda engine: a pushing sweep needs a run without CPML");
    if (r.empty()) return;
    YEEX_CUDA(cudaSetDevice(device_));
    const FieldPointers<Real> f = pointers();
    const SourceFold<Real> fold = UpdateH ? SourceFold<Real>{} : take_fold(r);
    if constexpr (std::is_same_v<Real, float>)
      if (takes_pairs(r) && push.shift % 2 == 0) {  // the pushed pairs' 8-byte stores aligned too
        const auto kernel = fold.count ? yee_pushing_sweep_kernel<float, false, true, true>
                                       : yee_pushing_sweep_kernel<float, UpdateH, false, true>;
        return launch_kernel(kernel, pair_grid(r), dim3(kPairLanes, kPairRows, 1), stream_, f.ex, f.ey, f.ez, f.hx,
                             f.hy, f.hz, class_ptr_, phases_.get(), layout_, r, push, fold);
      }
    const dim3 block(kSweepBlock.x, kSweepBlock.y, 1);
    const dim3 grid(blocks(r.i1 - r.i0, block.x), blocks(r.j1 - r.j0, block.y), static_cast<unsigned>(r.k1 - r.k0));
    const auto kernel =
        fold.count ? yee_pushing_sweep_kernel<Real, false, true> : yee_pushing_sweep_kernel<Real, UpdateH>;
    launch_kernel(kernel, grid, block, stream_, f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, class_ptr_, phases_.get(), layout_,
                  r, push, fold);
  }

  CudaEngineView<Real> view() {
    return {pointers(),     class_ptr_, classes_.get(), static_cast<int>(classes_.size()), layout_, sources_.get(),
            source_count_,  source_rounds_,        samples_.get(), probes_.get(), probe_count_,
            probe_buffer_.get(), device_,          stream_,        cpml_};
  }

 private:
  // Every engine kernel goes through here: with dependent_launch_ as a programmatic dependent
  // launch (follow_previous_kernel), else as a plain one.
  template <typename... Params, typename... Args>
  void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t on, Args&&... args) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid, config.blockDim = block, config.stream = on;
    config.attrs = &attribute, config.numAttrs = dependent_launch_ ? 1 : 0;
    YEEX_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
  }

  // The sources the E sweeps of the step did not fold in (arm_fold), in rounds.
  void launch_sources(const Real* samples, const Cursor* cursor) {
    if (source_count_ == 0) return;
    unsigned folded = 0;
    if (fold_.armed) {
      if (fold_.samples != samples || fold_.cursor != cursor)
        throw std::logic_error("cuda engine: the sources of another step than the one folded");
      folded = fold_.folded;
      fold_ = Fold{};
      if (folded == (source_count_ == 32 ? ~0u : (1u << source_count_) - 1)) return;  // all added
    }
    YEEX_CUDA(cudaSetDevice(device_));
    for (int round = 0; round < source_rounds_; ++round)  // one, unless sources share a node
      launch_kernel(inject_sources_kernel<Real>, (source_count_ + 127) / 128, 128, stream_, pointers(), sources_.get(),
                    source_count_, samples, round, cursor, folded);
  }

  // Sources folded into the plain and pushing E sweeps (Engine::fold_sources): where the engine
  // has 1-32 sources and no CPML (its sweeps take other kernels), fold_sources arms fold_; each E
  // sweep until the step's inject_sources then takes the armed step's sources in its range
  // (take_fold) and inject_sources adds the rest: a kernel fewer a step, which counts on small
  // grids (docs/performance.md#source-folding). CudaEngineOptions::fold_sources (a test seam)
  // turns it off.
  void arm_fold(const Real* samples, const Cursor* cursor) {
    if (fold_sources_) fold_ = Fold{true, samples, cursor, 0};
  }
  // The armed step's sources not folded yet whose nodes lie in r, up to kFoldSources, now folded.
  // In the order of their index: the first one that does not fit ends the list, so that sources
  // sharing a node keep their order.
  SourceFold<Real> take_fold(const NodeRange& r) {
    SourceFold<Real> fold;
    if (!fold_.armed) return fold;
    fold.samples = fold_.samples, fold.cursor = fold_.cursor, fold.row = source_count_;
    for (int s = 0; s < source_count_; ++s) {
      const PointSource& source = host_sources_[static_cast<std::size_t>(s)];
      if (fold_.folded >> s & 1u || !contains(r, source.offset)) continue;
      if (fold.count == kFoldSources) break;
      fold.offset[fold.count] = source.offset, fold.component[fold.count] = source.component;
      fold.coefficient[fold.count] = static_cast<Real>(source.coefficient), fold.column[fold.count] = s;
      ++fold.count;
      fold_.folded |= 1u << s;
    }
    return fold;
  }
  // Whether the node at array offset `offset` lies in r.
  bool contains(const NodeRange& r, Index offset) const {
    const auto [i, j, k] = layout_.node(offset);
    return r.i0 <= i && i < r.i1 && r.j0 <= j && j < r.j1 && r.k0 <= k && k < r.k1;
  }

  Real* field(Component c) const { return field_ptr_[static_cast<int>(c)]; }
  FieldPointers<Real> pointers() const {
    return {field_ptr_[0], field_ptr_[1], field_ptr_[2], field_ptr_[3], field_ptr_[4], field_ptr_[5]};
  }

  // Points the field and class pointers into `arena`, a field arena in slots of `unit`
  // (kernels/field_layout.hpp).
  void point_into(const DeviceArray<std::uint8_t>& arena, std::size_t unit) {
    const std::size_t slot = field_slot(layout_.elements() * sizeof(Real), unit);
    for (int c = 0; c < kComponentCount; ++c) field_ptr_[c] = reinterpret_cast<Real*>(arena.get() + c * slot);
    class_ptr_ = arena.get() + kComponentCount * slot;
  }
  // A field arena in slots of `unit`, its fields zero, the pointers set into it (the class bytes
  // are the caller's to fill).
  DeviceArray<std::uint8_t> make_arena(std::size_t unit) {
    const std::size_t n = layout_.elements();
    DeviceArray<std::uint8_t> arena(field_arena_bytes(n, sizeof(Real), unit));
    YEEX_CUDA(cudaMemset(arena.get(), 0, kComponentCount * field_slot(n * sizeof(Real), unit)));
    point_into(arena, unit);
    return arena;
  }

  // The placement trial (kernels/field_layout.hpp): the engine's step (both sweeps over every node,
  // on the zero fields, which stay zero) timed in arena_, in slots of `unit`, and in the arena of
  // each other unit of kSlotUnits that fits in half the free memory; the fastest arena is kept,
  // and the engine's choices report the times.
  void choose_placement(std::size_t unit) {
    // Engines built at once on one GPU (slabs sharing it) take turns, so that no trial times another's.
    static std::array<std::mutex, 64> device_locks;
    const std::lock_guard<std::mutex> one_at_a_time(device_locks[static_cast<std::size_t>(device_) % device_locks.size()]);
    const std::size_t n = layout_.elements();
    double best = time_steps();
    std::string times = ms_text(best) + " ms/step " + slot_unit_name(unit);
    for (const std::size_t other : kSlotUnits) {
      if (other == unit) continue;
      std::size_t free = 0, total = 0;
      cuda_memory_info(device_, free, total);
      if (field_arena_bytes(n, sizeof(Real), other) > free / 2) continue;
      const std::uint8_t* const classes = class_ptr_;
      DeviceArray<std::uint8_t> trial = make_arena(other);
      YEEX_CUDA(cudaMemcpy(class_ptr_, classes, n, cudaMemcpyDeviceToDevice));
      const double t = time_steps();
      times += ", " + ms_text(t) + " " + slot_unit_name(other);
      if (t < best) {
        best = t, unit = other;
        arena_ = std::move(trial);  // the move swaps: the old arena is freed with trial
      } else {
        point_into(arena_, unit);
      }
    }
    placement_choice_ = "field arena in " + slot_unit_name(unit) + " slots (timed: " + times + ")";
  }
  static std::string ms_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", seconds * 1e3);
    return text;
  }

  // Seconds a step of both sweeps over every node takes, the least of five runs of a few steps
  // after one.
  double time_steps() {
    const NodeRange all{0, layout_.nodes_x - 1, 0, layout_.nodes_y - 1, 0, layout_.nodes_z - 1};
    const Index steps = std::clamp<Index>((Index(1) << 29) / std::max<Index>(all.count(), 1), 2, 16);
    const std::vector<float> ms = timed_runs_ms(stream_, 1, 5, [&] {
      for (Index s = 0; s < steps; ++s) sweep<true>(all, stream_), sweep<false>(all, stream_);
    });
    return 1e-3 * *std::min_element(ms.begin(), ms.end()) / static_cast<double>(steps);
  }

  cudaStream_t stream(Lane lane) const { return lane == Lane::border ? border_stream_ : stream_; }

  // Without CPML one launch of the plain kernel over r. With CPML the split sweep
  // (kernels/cpml.hpp): the plain kernel over the nodes of no slab, the CPML kernel over the shell
  // boxes (the nodes are disjoint, so their order does not matter). On the border lane, and where
  // the shell is smaller than fork_nodes_, all on `stream`. Else the shell boxes go to
  // shell_stream_, forked from `stream` and joined back into it (so what follows on the lane
  // follows them too), at a higher priority: the block scheduler then hands their blocks out
  // first, and they share the SMs with the plain kernel's. Alone, a shell kernel holds few blocks
  // per SM and its memory traffic stays well below the plain kernel's; beside the plain kernel's
  // blocks the SMs keep more loads in flight, and the shells' ramps and tails overlap the plain
  // kernel (docs/performance.md#cpml-split). The two boxes of an axis go in one launch, side by
  // side along their axis (see kNarrowShellThreads). A forked shell cuts its z and y boxes into
  // single-axis cores and strips, the strips in as few launches as their block shapes allow
  // (yee_strip_kernel), before the x boxes. In float there are no x boxes: the plain kernel sweeps
  // whole rows and its warps that meet an x face take the CPML path (kWholeRows).
  // Blocks of b along n nodes.
  static unsigned blocks(Index n, unsigned b) { return static_cast<unsigned>((n + b - 1) / b); }
  // Whether a float sweep over r takes node pairs (yee_pair_sweep_kernel and the pushing kernel's
  // Pairs form): pairs_fit, and r starts on an even node and holds an even count in x.
  bool takes_pairs(const NodeRange& r) const { return pairs_ && r.i0 % 2 == 0 && (r.i1 - r.i0) % 2 == 0; }
  // The grid of a pair sweep over r: blocks of kPairLanes x kPairRows threads, a plane of blocks a
  // node plane.
  static dim3 pair_grid(const NodeRange& r) {
    return dim3(blocks(r.i1 - r.i0, 2 * kPairLanes), blocks(r.j1 - r.j0, kPairRows),
                static_cast<unsigned>(r.k1 - r.k0));
  }

  template <bool UpdateH>
  void sweep(const NodeRange& r, cudaStream_t stream) {
    if (r.empty()) return;
    YEEX_CUDA(cudaSetDevice(device_));
    const FieldPointers<Real> f = pointers();
    // One box, or two along grid axis `axis` (second non-empty, the same extents across it; the
    // kernel's sweep_pair_axis): the grid holds the first box's blocks, then the second's.
    const auto launch = [&](auto kernel, const NodeRange& box, dim3 block, cudaStream_t on,
                            const NodeRange& second = NodeRange{}, int axis = 2,
                            const SourceFold<Real>& fold = SourceFold<Real>{}) {
      SweepBoxes boxes;
      boxes.box[0] = box, boxes.box[1] = second;
      dim3 grid(blocks(box.i1 - box.i0, block.x), blocks(box.j1 - box.j0, block.y), blocks(box.k1 - box.k0, block.z));
      unsigned& along = axis == 0 ? grid.x : axis == 1 ? grid.y : grid.z;
      boxes.split = along;
      if (!second.empty()) {
        const Index extent[3] = {second.i1 - second.i0, second.j1 - second.j0, second.k1 - second.k0};
        const unsigned size[3] = {block.x, block.y, block.z};
        along += blocks(extent[axis], size[axis]);
      }
      launch_kernel(kernel, grid, block, on, f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, class_ptr_, phases_.get(),
                    layout_, boxes, cpml_, fold);
    };
    if (cpml_.faces == 0) {
      // The E sweep takes the kernels' Fold form where it folds sources in (take_fold).
      const SourceFold<Real> fold = UpdateH ? SourceFold<Real>{} : take_fold(r);
      if constexpr (std::is_same_v<Real, float>)
        if (takes_pairs(r)) {
          const auto kernel = fold.count ? yee_pair_sweep_kernel<false, true> : yee_pair_sweep_kernel<UpdateH>;
          return launch_kernel(kernel, pair_grid(r), dim3(kPairLanes, kPairRows, 1), stream, f.ex, f.ey, f.ez, f.hx,
                               f.hy, f.hz, class_ptr_, phases_.get(), layout_, r, fold);
        }
      if (fold.count)
        return launch(yee_sweep_kernel<Real, false, false, 0, 0, true>, r, kSweepBlock, stream, {}, 2, fold);
      return launch(yee_sweep_kernel<Real, UpdateH, false, 0, 0>, r, kSweepBlock, stream);
    }
    // The nodes of r outside the aligned plain box: the shell boxes' (cpml_split partitions r),
    // x boxes included. With whole rows the x boxes' nodes go to the plain kernel, but the fork
    // threshold (tuned before whole rows) still counts them.
    const Index shell_nodes = r.count() - cpml_plain_box(cpml_, r, split_align_).count();
    const bool fork = stream == stream_ && shell_nodes > 0 && shell_nodes >= fork_nodes_;
    const CpmlSplit split = cpml_split(cpml_, r, split_align_, fork, kWholeRows<Real>);
    const cudaStream_t shells = fork ? shell_stream_ : stream;
    if (fork) {
      YEEX_CUDA(cudaEventRecord(shell_fork_, stream));
      YEEX_CUDA(cudaStreamWaitEvent(shell_stream_, shell_fork_, 0));
    }
    // The strips of a split with cores, by block shape, kStripBoxes to a launch.
    std::vector<NodeRange> strips;
    const auto launch_strips = [&] {
      std::vector<bool> done(strips.size(), false);
      for (std::size_t s0 = 0; s0 < strips.size(); ++s0) {
        if (done[s0]) continue;
        const dim3 shape = shell_block(strips[s0]);
        StripBoxes list;
        const auto flush = [&] {
          if (list.count == 0) return;
          launch_kernel(yee_strip_kernel<Real, UpdateH, kShellMinBlocks>, list.first[list.count], shape, shells, f.ex,
                        f.ey, f.ez, f.hx, f.hy, f.hz, class_ptr_, phases_.get(), layout_, list, cpml_);
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
          list.first[q + 1] =
              list.first[q] + list.blocks_x[q] * list.blocks_y[q] * blocks(strip.k1 - strip.k0, shape.z);
          if (list.count == kStripBoxes) flush();
        }
        flush();
      }
      strips.clear();
    };
    for (int b = 0; b < split.shells; ++b) {
      const int axes = split.axes[b];
      if (split.cores && (axes == 7 || axes == 5 || axes == 3)) {
        strips.push_back(split.shell[b]);
        continue;
      }
      if (axes == 1) launch_strips();  // before the x boxes
      // The two boxes of an axis (the same kernel and block shape) in one launch, placed one after
      // the other along that axis in the grid.
      const NodeRange& first = split.shell[b];
      const dim3 block = shell_block(first);
      const int axis = pair_axis(axes);
      NodeRange second{};
      if (b + 1 < split.shells && split.axes[b + 1] == axes && same_shape(shell_block(split.shell[b + 1]), block) &&
          same_across(first, split.shell[b + 1], axis))
        second = split.shell[++b];
      if (axes == 1)
        launch(yee_sweep_kernel<Real, UpdateH, true, kXBoxMinBlocks<Real>, 1>, first, block, shells, second, axis);
      else if (axes == 2)
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 2>, first, block, shells, second, axis);
      else if (axes == 3)
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 3>, first, block, shells, second, axis);
      else if (axes == 4)
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 4>, first, block, shells, second, axis);
      else
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 7>, first, block, shells, second, axis);
    }
    launch_strips();
    if (split.plain_axes == 1)
      launch(yee_sweep_kernel<Real, UpdateH, false, 0, 1>, split.plain, kSweepBlock, stream);
    else if (!split.plain.empty())
      launch(yee_sweep_kernel<Real, UpdateH, false, 0, 0>, split.plain, kSweepBlock, stream);
    if (fork) {
      YEEX_CUDA(cudaEventRecord(shell_join_, shell_stream_));
      YEEX_CUDA(cudaStreamWaitEvent(stream, shell_join_, 0));
    }
  }

  static bool same_shape(dim3 a, dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
  // Whether boxes a and b span the same nodes along the two axes other than `axis`.
  static bool same_across(const NodeRange& a, const NodeRange& b, int axis) {
    return (axis == 0 || (a.i0 == b.i0 && a.i1 == b.i1)) && (axis == 1 || (a.j0 == b.j0 && a.j1 == b.j1)) &&
           (axis == 2 || (a.k0 == b.k0 && a.k1 == b.k1));
  }

  // The x boxes of the shell are a few nodes wide: a block as wide as the box (rounded up to a
  // power of two) and kNarrowShellThreads threads or more, so that warps are not mostly idle.
  dim3 shell_block(const NodeRange& box) const {
    const unsigned width = static_cast<unsigned>(box.i1 - box.i0);
    if (width >= kSweepBlock.x) return kSweepBlock;
    unsigned x = 1;
    while (x < width) x *= 2;
    return dim3(x, std::max(kNarrowShellThreads, x) / x, 1);
  }

  FieldLayout layout_;
  int device_;
  Index steps_;
  int source_count_, probe_count_;
  int source_rounds_ = 0;  // number_rounds (kernels/engine.hpp)
  Index probe_slots_;
  Index split_align_ = cpml_split_align(sizeof(Real));
  Index fork_nodes_;  // the smallest CPML shell that forks (kShellForkNodes)
  bool pairs_;        // yee_pair_sweep_kernel for the float sweeps of a run without CPML
  bool dependent_launch_ = false;  // launch_kernel's programmatic dependent launches (dependent_launch())
  std::string launch_choice_, placement_choice_;  // for choices()
  cudaStream_t stream_ = nullptr;         // Lane::bulk, lowest priority
  cudaStream_t border_stream_ = nullptr;  // Lane::border, highest priority
  cudaStream_t shell_stream_ = nullptr;   // a bulk sweep's CPML shell boxes, between the two (see sweep)
  cudaEvent_t shell_fork_ = nullptr, shell_join_ = nullptr;
  cudaEvent_t lane_fork_ = nullptr, lane_join_ = nullptr;  // the lanes into and out of a recording
  std::vector<cudaGraphExec_t> recordings_;                 // record_end's, by index
  DeviceArray<Cursor> cursor_;  // set_cursor's (made on the engine's GPU)
  DeviceArray<unsigned> flag_;   // fields_finite's
  std::array<cudaEvent_t, Engine<Real>::kTimeStamps> stamps_{};  // stamp's, with timing
  std::array<cudaEvent_t, kLaneMarks> marks_{};  // Engine::mark, timing disabled (cheaper to record and wait)
  // Fields below kPlacementTrialBytes take an array each (fields_, material_class_), larger ones a
  // field arena (arena_); field_ptr_ and class_ptr_ point into either.
  std::array<DeviceArray<Real>, kComponentCount> fields_;
  DeviceArray<std::uint8_t> material_class_;
  DeviceArray<std::uint8_t> arena_;
  std::array<Real*, kComponentCount> field_ptr_{};
  std::uint8_t* class_ptr_ = nullptr;
  DeviceArray<CellCoefficients<Real>> classes_;  // for view() (coop's kernel)
  DeviceArray<PhaseCoefficients<Real>> phases_;  // the sweep kernels' (phase_table)
  DeviceArray<PointSource> sources_;
  std::vector<PointSource> host_sources_;  // sources_, for take_fold
  // The folded step (arm_fold): its samples and cursor as inject_sources will name them, and a bit
  // for each source an E sweep took (take_fold).
  struct Fold {
    bool armed = false;
    const Real* samples = nullptr;
    const Cursor* cursor = nullptr;
    unsigned folded = 0;
  } fold_;
  bool fold_sources_ = false;  // whether fold_sources folds (arm_fold)
  DeviceArray<Real> samples_;
  DeviceArray<ProbePoint> probes_;
  DeviceArray<Real> probe_buffer_;
  CpmlView<Real> cpml_;
  std::array<DeviceArray<CpmlProfile<Real>>, kMaxCpmlFaces> cpml_tables_;
  std::array<DeviceArray<Real>, kMaxCpmlFaces> cpml_psi_;
};

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}

}  // namespace

template <typename Real>
std::unique_ptr<Engine<Real>> make_cuda_engine(const EngineSetup<Real>& setup, const CudaEngineOptions& options) {
  return std::make_unique<CudaEngine<Real>>(setup, options);
}
template std::unique_ptr<Engine<float>> make_cuda_engine<float>(const EngineSetup<float>&, const CudaEngineOptions&);
template std::unique_ptr<Engine<double>> make_cuda_engine<double>(const EngineSetup<double>&, const CudaEngineOptions&);

template <typename Real>
void cuda_sweep_pushing(Engine<Real>& engine, bool update_h, const NodeRange& range, const SweepPush<Real>& push) {
  auto* cuda = dynamic_cast<CudaEngine<Real>*>(&engine);
  if (!cuda) throw std::invalid_argument("engine '" + engine.name() + "' is not the cuda engine");
  if (update_h)
    cuda->template sweep_pushing<true>(range, push);
  else
    cuda->template sweep_pushing<false>(range, push);
}
template void cuda_sweep_pushing<float>(Engine<float>&, bool, const NodeRange&, const SweepPush<float>&);
template void cuda_sweep_pushing<double>(Engine<double>&, bool, const NodeRange&, const SweepPush<double>&);

template <typename Real>
CudaEngineView<Real> cuda_engine_view(Engine<Real>& engine) {
  auto* cuda = dynamic_cast<CudaEngine<Real>*>(&engine);
  if (!cuda) throw std::invalid_argument("engine '" + engine.name() + "' is not the cuda engine");
  return cuda->view();
}
template CudaEngineView<float> cuda_engine_view<float>(Engine<float>&);
template CudaEngineView<double> cuda_engine_view<double>(Engine<double>&);

template <typename Real>
std::vector<PointSource> host_sources(const CudaEngineView<Real>& view) {
  std::vector<PointSource> sources(static_cast<std::size_t>(view.source_count));
  if (sources.empty()) return sources;
  YEEX_CUDA(cudaSetDevice(view.device));
  YEEX_CUDA(cudaMemcpy(sources.data(), view.sources, sources.size() * sizeof(PointSource), cudaMemcpyDeviceToHost));
  return sources;
}
template std::vector<PointSource> host_sources<float>(const CudaEngineView<float>&);
template std::vector<PointSource> host_sources<double>(const CudaEngineView<double>&);

bool can_access_peer(int a, int b) {
  int yes = 0;
  return a == b || (cudaDeviceCanAccessPeer(&yes, a, b) == cudaSuccess && yes);
}

void enable_peer_access(int a, int b) {
  if (a == b) return;
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    YEEX_CUDA(cudaSetDevice(from));
    const cudaError_t status = cudaDeviceEnablePeerAccess(to, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled)
      cudaGetLastError();  // clear it: already on is what we want
    else
      YEEX_CUDA(status);
  }
}

void set_peer_access(int a, int b, bool on) {
  if (on) return enable_peer_access(a, b);
  if (a == b) return;
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    YEEX_CUDA(cudaSetDevice(from));
    const cudaError_t status = cudaDeviceDisablePeerAccess(to);
    if (status == cudaErrorPeerAccessNotEnabled)
      cudaGetLastError();  // already off
    else
      YEEX_CUDA(status);
  }
}

void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  YEEX_CUDA(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
  return p;
}
void free_pinned(void* p) {
  if (p) cudaFreeHost(p);
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

std::string cuda_device_name(int device) {
  cudaDeviceProp prop{};
  YEEX_CUDA(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

void cuda_memory_info(int device, std::size_t& free_bytes, std::size_t& total_bytes) {
  YEEX_CUDA(cudaSetDevice(device));
  YEEX_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
}

namespace {
std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
}  // namespace

std::string cuda_runtime_version() {
  int v = 0;
  return cudaRuntimeGetVersion(&v) == cudaSuccess ? version_string(v) : "unknown";
}
std::string cuda_driver_version() {
  int v = 0;
  return cudaDriverGetVersion(&v) == cudaSuccess && v > 0 ? version_string(v) : "none";
}

double measure_device_copy_bandwidth(int device, std::size_t bytes) {
  YEEX_CUDA(cudaSetDevice(device));
  const std::size_t n = bytes / sizeof(float4);
  DeviceArray<float4> a(n), b(n);
  YEEX_CUDA(cudaMemset(a.get(), 1, n * sizeof(float4)));
  // Median of 10 timed copies after 2 warm-ups, for a copy kernel (one float4 per thread) and
  // for cudaMemcpy; the better of the two is the device's copy bandwidth.
  const auto median_ms = [&](auto copy) {
    std::vector<float> ms = timed_runs_ms(nullptr, 2, 10, copy);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
  };
  const float kernel_ms = median_ms([&] {
    copy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(a.get(), b.get(), n);
    YEEX_CUDA(cudaGetLastError());
  });
  const float memcpy_ms = median_ms([&] { YEEX_CUDA(cudaMemcpyAsync(b.get(), a.get(), n * sizeof(float4), cudaMemcpyDeviceToDevice)); });
  return 2.0 * n * sizeof(float4) / (std::min(kernel_ms, memcpy_ms) * 1e-3) / 1e9;
}

}  // namespace yeex
