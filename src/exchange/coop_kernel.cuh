// coop's persistent kernel (coop_exchange.cu runs it): its launch shape, the counters between
// GPUs, the border-first sweeps that store the halo planes into the neighbours, and the kernel
// whose loop runs a chunk of steps (coop_kernel). coop_exchange.cu's header says how it
// synchronises; coop_plan.hpp how its blocks walk a sweep. Included by coop_exchange.cu alone
// (its definitions sit in an unnamed namespace: one translation unit).
#pragma once

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "kernels/cuda/node_pairs.cuh"
#include "src/exchange/coop_plan.hpp"

namespace yeex {
namespace {

namespace cg = cooperative_groups;

// Threads per block and blocks per SM of the persistent grid (__launch_bounds__: the register
// budget). In float the PEC kernel fits 32 registers, so 2 blocks of 1024 fill an SM (2048 threads,
// the occupancy of the engine's sweep kernel, which keeps as many cells' loads in flight). With
// inject_sources inlined ptxas reports a little stack (spills), outside the sweeps' bulk loops:
// around the border tiles, the band barriers and the step loop; with it called, none (FormTrials:
// each run times both). A tighter register cap slows the sweep. Blocks of 1024 (tiles of 32 x 32)
// rather than 256 with the same threads per SM: a quarter of the blocks arrive at each
// grid.sync(), and a band's tiles go to fewer, wider units. In double the kernel needs 40
// registers (no spills): 3 blocks of 512.
// All loads of a cell come before its stores (the field pointers are not __restrict__, see the
// kernel), so it needs more registers than the engine's kernel.
// The material classes' coefficients sit in shared memory (shared_classes). ptxas's schedule of
// the sweep's loads moves with any change to the kernel, and with it the speed of each form
// (FormTrials picks the faster): measure both forms after each change (--coop-form, and the times
// the run reports in exchange_choices).
// The CPML instantiation holds a slab node's psi and profile values in registers too; it loads
// each face's values only after the main update (update_cell_with_cpml's Lean), so that fewer
// are live at once, and runs 5 blocks of 256 per SM in float, 3 in double; with every value
// loaded up front it would need far more registers and fewer blocks.
// Node pairs (PairBlock > 0: float without CPML, two nodes of a row a thread,
// kernels/cuda/node_pairs.cuh) in blocks of PairBlock threads: 512, 3 a multiprocessor (tiles of
// 64 x 16 nodes, as many as 1024 threads of one node sweep), or 1024, one a multiprocessor (tiles
// of 64 x 32). The wide blocks pay off on small subdomains, where fewer blocks meet at each
// grid.sync(), so a subdomain takes 1024 x 1 where it holds at most kWidePairNodesPerSm nodes a
// multiprocessor, 512 x 3 above (docs/performance.md#node-pairs). ExchangeOptions::coop_pairs and
// coop_pair_block (test seams) turn pairs off or fix the shape.
template <typename Real, bool Cpml = false, int PairBlock = 0>
constexpr int kBlockSize = PairBlock           ? PairBlock
                           : Cpml              ? 256
                           : sizeof(Real) == 4 ? 1024
                                               : 512;
template <typename Real, bool Cpml = false, int PairBlock = 0>
constexpr int kMinBlocksPerSm = PairBlock == 512    ? 3
                                : PairBlock == 1024 ? 1
                                : Cpml              ? (sizeof(Real) == 4 ? 5 : 3)
                                : sizeof(Real) == 4 ? 2
                                                    : 3;
constexpr Index kWidePairNodesPerSm = 65536;
template <typename Real>
int block_size(bool cpml, int pair_block = 0) {
  return pair_block ? pair_block : cpml ? kBlockSize<Real, true> : kBlockSize<Real, false>;
}
constexpr unsigned long long kWaitLimitSeconds = 10;
// Set in a counter by a subdomain that gave up: whoever waits on it gives up too.
constexpr unsigned long long kAbortBit = 1ull << 63;

enum Failure : unsigned long long { kFine = 0, kUpperStalled, kLowerStalled, kUpperFailed, kLowerFailed };

// In each subdomain's device memory. Counters on their own 128-byte lines: different GPUs write them.
struct CoopSignals {
  alignas(128) unsigned long long e_ready;  // written by the upper neighbour
  alignas(128) unsigned long long h_ready;  // written by the lower neighbour
  alignas(128) unsigned long long failure;  // a Failure, written by this subdomain's kernel
  long long failed_step;
  // [H sweep, E sweep]: border tiles finished since the exchange was seeded.
  alignas(128) unsigned long long border_tiles_done[2];
};

// One halo transfer a subdomain sends: one plane of some components, stored node by node by the
// sweep that computes it (see sweep), into the same place of the receiver's ghost plane.
template <typename Real>
struct PlanePush {
  int components = 0;
  Component component[kComponentCount] = {};
  const Real* from[kComponentCount] = {};  // this subdomain's arrays
  Real* to[kComponentCount] = {};          // the receiver's arrays
  Index shift = 0;                         // the receiver's offset of a node: this subdomain's offset + shift
  Index plane = 0;                         // this subdomain's offset of the plane's first element (whole padded planes)
  Index elements = 0;                      // in the plane, per component
  bool late = false;                       // a source changes the plane after the sweep: published after the sources
  unsigned long long* ready = nullptr;     // the receiver's counter
};

// The two forms of the kernel (coop_kernel's CallSources): inject_sources inlined, or called.
// Inlined, the source code raises the kernel's register pressure and the float kernel spills a
// little; called, no kernel spills. Which form runs faster depends on the GPU and on the
// subdomain's shape, by several per cent either way, with no rule that the measurements follow
// (docs/performance.md#coop-kernel-form). So each subdomain times both in its first launches and
// keeps the faster (FormTrials, form 0: inlined, 1: called); --coop-form fixes one instead. Both
// forms compute the same bits (same arithmetic, same order); the choice moves only the speed.
// Every subdomain runs the same trial schedule (trial steps from the largest subdomain), so on
// several GPUs each trial times the whole team in one form, and the team's times (each form's
// slowest subdomain) choose one form for all (agree). The called form also adds a subdomain's few
// sources in its E sweep where it can (sweep sources, add_sweep_sources), which saves the rounds'
// grid.sync(); the inlined form keeps the rounds, whose register budget that code would strain.
// ExchangeOptions::coop_trial_steps (a test seam) sets the steps per trial, so that the tests
// split calls into trials.

// Everything one subdomain's kernel needs, passed by value (__grid_constant__).
template <typename Real>
struct CoopKernelParams {
  FieldPointers<Real> fields;
  const std::uint8_t* material_class;
  const CellCoefficients<Real>* classes;
  int class_count;  // coop_kernel copies the table into shared memory (shared_classes)
  Index pitch_y, pitch_z;
  SweepPlan h_sweep, e_sweep;  // the plan's update ranges, local
  const PointSource* sources;
  int source_count;
  int source_rounds;           // 1 unless sources share a node (PointSource)
  const Real* source_samples;  // [step][source]
  // Sweep sources (see add_sweep_sources): with sweep_sources = source_count, source q lies in the
  // E sweep's tile source_key[q] (tile_key), on the node of thread source_thread[q] of the block
  // that sweeps it (0: the sources go in rounds after the sweep).
  int sweep_sources;
  unsigned source_key[kSweepSources];
  unsigned source_thread[kSweepSources];
  const ProbePoint* probes;
  int probe_count;
  Real* probe_buffer;      // [slot][probe]: slot 0 holds step probe_first (the advance() call's first)
  PlanePush<Real> push_h;  // by the H sweep, to the upper neighbour (the plan's BeforeE)
  PlanePush<Real> push_e;  // by the E sweep, to the lower neighbour (the plan's BeforeH of the next step)
  bool wait_e, wait_h;     // whether an upper / lower neighbour sends to this subdomain
  CoopSignals* signals;    // this subdomain's
  Index first, count;      // this launch's steps (an advance() call may take several launches)
  Index probe_first;
  CpmlView<Real> cpml;  // faces = 0 without CPML
};

__device__ __forceinline__ unsigned long long global_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void release(unsigned long long* counter, unsigned long long value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(*counter).store(value, cuda::memory_order_release);
}

// Run by one thread: spins until *counter >= target, or gives up (returns false) after
// kWaitLimitSeconds or when the neighbour has given up, recording why and poisoning the counters
// this subdomain's neighbours wait on. It polls with relaxed system-scope loads and no back-off,
// then orders what follows with one acquire fence (a relaxed load that reads a release store,
// followed by an acquire fence, synchronises with that store): a flag hop costs about half of what
// it costs with an acquire load per poll (yeex-p2p measures both). The clock is read every 256
// polls only.
template <typename Real>
__device__ bool wait_for(const CoopKernelParams<Real>& p, unsigned long long* counter, unsigned long long target,
                         Failure stalled, Failure failed, Index step) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> flag(*counter);
  unsigned long long value = flag.load(cuda::memory_order_relaxed);
  if (value < target) {
    const unsigned long long start = global_time_ns();
    for (unsigned polls = 1; value < target; ++polls) {  // the abort bit makes value huge
      if (polls % 256 == 0 && global_time_ns() - start > kWaitLimitSeconds * 1000000000ull) break;
      value = flag.load(cuda::memory_order_relaxed);
    }
  }
  if (value >= target && !(value & kAbortBit)) {
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_system);
    return true;
  }
  p.signals->failed_step = step;
  p.signals->failure = value & kAbortBit ? failed : stalled;
  if (p.push_h.ready) release(p.push_h.ready, kAbortBit);
  if (p.push_e.ready) release(p.push_e.ready, kAbortBit);
  return false;
}

// Whether the leader gave up at the wait before the last grid.sync().
template <typename Real>
__device__ __forceinline__ bool stopped(const CoopKernelParams<Real>& p) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(p.signals->failure)
             .load(cuda::memory_order_relaxed) != kFine;
}

// Run by thread 0 of a block that finished a border tile of step n (its threads' stores to the
// receiver fenced out, then __syncthreads()): counts the tile; the plane's last one publishes.
// Every tile of a step is counted before any of the next (grid.sync() between), so the last
// tile of a step is the one that makes the count a multiple of the plane's tiles (the counter
// only grows; it is zeroed when the exchange is seeded).
// Causality: each tile's stores -> fence -> barrier -> its count (release) -> the last count
// (acquire) -> the release store the receiver acquires.
template <typename Real>
__device__ void count_border_tile(const PlanePush<Real>& push, unsigned long long* tiles_done, unsigned plane_tiles,
                                  Index n) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> done(*tiles_done);
  if ((done.fetch_add(1, cuda::memory_order_acq_rel) + 1) % plane_tiles == 0 && !push.late)
    release(push.ready, static_cast<unsigned long long>(n + 1));
}

// The material classes' coefficients in shared memory: coop_kernel copies p.classes there first,
// so that a node's coefficients arrive one shared load after its class byte instead of one L1 or
// L2 load (the streaming fields leave little of L1 to the table).
extern __shared__ float4 coop_shared[];
template <typename Real>
__device__ __forceinline__ const CellCoefficients<Real>* shared_classes() {
  return reinterpret_cast<const CellCoefficients<Real>*>(coop_shared);
}
template <typename Real>
__host__ __device__ std::size_t shared_class_bytes(int class_count) {
  return static_cast<std::size_t>(class_count) * sizeof(CellCoefficients<Real>);
}

// Updates this thread's node of the cursor's tile; returns its array offset, or -1 where the tile
// sticks out of the box. With Cpml, the nodes in a CPML slab take update_cell_with_cpml, as in the
// engine's split sweep (same bits).
// With node pairs (PairBlock > 0) the thread updates the pair of nodes at the offset it returns and
// the next one (the box's width is even: a pair lies wholly inside it or wholly outside).
template <typename Real, bool UpdateH, bool Cpml, int PairBlock>
__device__ __forceinline__ Index update_tile_node(const CoopKernelParams<Real>& p, const SweepPlan& s,
                                                  const TileCursor& at) {
  constexpr bool Pairs = PairBlock > 0;
  constexpr int kPair = Pairs ? 2 : 1;
  const int i = (static_cast<int>(at.tile_x) * kTileX + static_cast<int>(threadIdx.x) % kTileX) * kPair;
  constexpr int kTileY = kBlockSize<Real, Cpml, PairBlock> / kTileX;
  const int j = static_cast<int>(at.tile_y) * kTileY + static_cast<int>(threadIdx.x) / kTileX;
  if (i >= s.nx || j >= s.ny) return -1;
  const unsigned plane = s.downward ? s.nz - 1 - at.k : at.k;
  const Index c = s.first_offset + i + j * p.pitch_y + Index(plane) * p.pitch_z;
  if constexpr (Pairs) {
    const FieldPointers<Real>& f = p.fields;
    update_node_pair<UpdateH>(
        f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, p.material_class, c, static_cast<int>(p.pitch_y), p.pitch_z,
        [](unsigned cls) { return shared_classes<Real>()[cls]; }, true);
  } else {
    const CellCoefficients<Real> m = shared_classes<Real>()[p.material_class[c]];  // all loads before the cell's stores
    const Index gi = s.i0 + i, gj = s.j0 + j, gk = s.k0 + Index(plane);
    if (Cpml && !in_cpml_interior(p.cpml, gi, gj, gk))
      update_cell_with_cpml<Real, UpdateH, 7, true>(p.cpml, p.fields, c, gi, gj, gk, p.pitch_y, p.pitch_z, m);
    else if constexpr (UpdateH)
      update_h_cell(p.fields, c, p.pitch_y, p.pitch_z, m);
    else
      update_e_cell(p.fields, c, p.pitch_y, p.pitch_z, m);
  }
  return c;
}

// Adds source q (`src`, p.sources[q]) of step n to its node, as the cuda engine's
// inject_sources_kernel does; returns the node.
template <typename Real>
__device__ __forceinline__ Real& add_point_source(const CoopKernelParams<Real>& p, const PointSource& src, Index q,
                                                  Index n) {
  Real& e = component_array(p.fields, src.component)[src.offset];
  add_source(e, static_cast<Real>(src.coefficient), p.source_samples[n * p.source_count + q]);
  return e;
}

// Sweep sources (the called form of the kernel): when a subdomain has at most kSweepSources
// sources, all inside its E sweep (sweep_source_places) and none on a node of the E plane it
// sends, the E sweep adds them itself, without the rounds' grid.sync(): after the sweep, the
// thread that updated a source's node (in the block that swept its tile: tile_key % blocks) adds
// the source to it, in the order of the sources (the rounds' order for sources on one node). The
// same sums in the same order as the rounds: the same bits, a grid.sync() fewer a step. The sweep's
// loops carry no test: tested in every tile of the bulk loop, or with the border tiles' sources
// added in the border loop before the push, the check costs more than the rounds.
template <typename Real>
__device__ __forceinline__ void add_sweep_sources(const CoopKernelParams<Real>& p, Index n) {
  for (int q = 0; q < p.sweep_sources; ++q)
    if (p.source_key[q] % gridDim.x == blockIdx.x && p.source_thread[q] == threadIdx.x)
      add_point_source(p, p.sources[q], q, n);
}

// One sweep of step n (see SweepPlan): block b takes tiles b, b + grid, b + 2 grid, ... in the
// sweep's order. The first plane's tiles, when push sends that plane (s.border_tiles), also go to
// push's receiver, node by node, and are counted (count_border_tile); the bulk follows.
// Bands: left alone, the blocks of a persistent grid drift apart over a long sweep (the engine's
// blocks are issued in order instead), and the planes at work spread over more of the memory: the
// sweep then runs at a smaller share of the DRAM bandwidth than the engine's, with the same
// instructions, bytes and hit rates. So every block calls grid.sync() once at each boundary of
// s.band_planes planes in sweep order (and the blocks that finish early the remaining ones): no
// block runs more than a band ahead of the slowest (band_planes; docs/performance.md#coop-band-span,
// which also lists the schedules tried instead: tiles drawn from counters, soft bands, fused
// passes, other tile shapes, read-only loads, drawn tails).
// Stores the Nodes nodes from offset c of the plane `push` sends into the receiver (they were just
// stored here: L2 hits). A pair goes in one 8-byte store a component, so that a warp's store
// covers its 256 bytes of the row whole; in two 4-byte stores each warp store would write every
// other word of the span, and a sweep that sends runs longer. Reloaded rather than stored from the
// values the update computed, which would keep them live across the update and slow the kernel.
template <int Nodes, typename Real>
__device__ __forceinline__ void store_pushed(const PlanePush<Real>& push, Index c) {
  for (int q = 0; q < push.components; ++q)
    if constexpr (Nodes == 2)  // float: pairs (even c, planes of an even pitch: 8-byte aligned)
      *reinterpret_cast<float2*>(push.to[q] + c + push.shift) = *reinterpret_cast<const float2*>(push.from[q] + c);
    else
      push.to[q][c + push.shift] = push.from[q][c];
}

// Publication of the sent plane (s.publish_band): in a banded sweep the border tiles only store
// their nodes into the receiver; the blocks that swept one fence at system scope before the first
// band's grid.sync() and the leader releases the step after it (the receiver needs the plane only
// at the end of its own sweep, a band later is early enough). Tile by tile, each border tile's
// fence and barrier would hold its block while its stores cross the link, and the grid would wait
// for the last of them at the band's end.
template <typename Real, bool UpdateH, bool Cpml, int PairBlock>
__device__ void sweep(const CoopKernelParams<Real>& p, const SweepPlan& s, const PlanePush<Real>& push,
                      unsigned long long* tiles_done, Index n) {
  TileCursor at(s, blockIdx.x);
  if (blockIdx.x >= s.tiles) at.k = s.nz;
  if (s.border_tiles) {
    if (s.publish_band) {
#pragma unroll 1
      for (; at.k == 0; at.advance(s))
        if (const Index c = update_tile_node<Real, UpdateH, Cpml, PairBlock>(p, s, at); c >= 0)
          store_pushed<PairBlock ? 2 : 1>(push, c);
    } else {
#pragma unroll 1
      for (; at.k == 0; at.advance(s)) {  // the same for the whole block
        if (const Index c = update_tile_node<Real, UpdateH, Cpml, PairBlock>(p, s, at); c >= 0) {
          store_pushed<PairBlock ? 2 : 1>(push, c);
          __threadfence_system();
        }
        __syncthreads();
        if (threadIdx.x == 0) count_border_tile(push, tiles_done, s.border_tiles, n);
      }
    }
  }
  for (unsigned band_end = s.band_planes ? s.band_planes : s.nz;; band_end += s.band_planes) {
    const unsigned end = min(band_end, s.nz);
#pragma unroll 1
    for (; at.k < end; at.advance(s)) update_tile_node<Real, UpdateH, Cpml, PairBlock>(p, s, at);
    if (band_end >= s.nz) break;
    // Published after the first band: this block's stores of border tiles fenced out (the blocks
    // that swept one: the first plane's tiles are the sweep's first), then the leader's release.
    if (band_end == s.publish_band && blockIdx.x < s.border_tiles) __threadfence_system();
    cg::this_grid().sync();
    if (band_end == s.publish_band && !push.late && blockIdx.x == 0 && threadIdx.x == 0)
      release(push.ready, static_cast<unsigned long long>(n + 1));
  }
}

// The sources of round `round` of step n, as the cuda engine's inject_sources_kernel (sources that
// share a node go in rounds, a grid.sync() before each: PointSource); a source on the E plane sent
// down (a late push) stores its node's sum into the receiver too.
template <typename Real>
__device__ void inject_sources(const CoopKernelParams<Real>& p, Index n, unsigned rank, int round) {
  if (Index(rank) >= p.source_count || p.sources[rank].round != round) return;
  const PointSource src = p.sources[rank];
  const Real& e = add_point_source(p, src, Index(rank), n);
  const PlanePush<Real>& push = p.push_e;
  if (!push.late || src.offset < push.plane || src.offset >= push.plane + push.elements) return;
  for (int q = 0; q < push.components; ++q)
    if (push.component[q] == src.component) push.to[q][src.offset + push.shift] = e;
  __threadfence_system();
}

// The probes of one field after step n: `electric` E^{n+1}, else H^{n+1/2}.
template <typename Real>
__device__ void sample_probes(const CoopKernelParams<Real>& p, Index n, unsigned rank, bool electric) {
  if (Index(rank) >= p.probe_count) return;
  const ProbePoint probe = p.probes[rank];
  if ((static_cast<int>(probe.component) < 3) != electric) return;
  p.probe_buffer[(n - p.probe_first) * p.probe_count + rank] = component_array(p.fields, probe.component)[probe.offset];
}

// inject_sources as a call, for the kernels that do not inline it (coop_kernel's CallSources).
template <typename Real>
__device__ __noinline__ void inject_sources_call(const CoopKernelParams<Real>& p, Index n, unsigned rank, int round) {
  inject_sources(p, n, rank, round);
}

// Cpml: with the CPML corrections (a separate instantiation, so that a PEC run keeps the plain
// kernel's registers). CallSources: inject_sources is called, not inlined (the two forms: see
// FormTrials).
// PairBlock: node pairs in the sweeps in blocks of that many threads (float without CPML only; 0:
// one node a thread).
template <typename Real, bool Cpml, bool CallSources, int PairBlock = 0>
__global__ void __launch_bounds__(kBlockSize<Real, Cpml, PairBlock>, kMinBlocksPerSm<Real, Cpml, PairBlock>)
    coop_kernel(const __grid_constant__ CoopKernelParams<Real> p) {
  cg::grid_group grid = cg::this_grid();
  const unsigned rank = blockIdx.x * blockDim.x + threadIdx.x;
  const bool leader = rank == 0;
  const Index last = p.first + p.count - 1;
  {  // the coefficient table into shared memory (shared_classes)
    const auto* from = reinterpret_cast<const unsigned*>(p.classes);
    auto* to = reinterpret_cast<unsigned*>(coop_shared);
    const unsigned words = shared_class_bytes<Real>(p.class_count) / sizeof(unsigned);
    for (unsigned w = threadIdx.x; w < words; w += blockDim.x) to[w] = from[w];
    __syncthreads();
  }
  // The upper neighbour's E^first in my ghost plane before the first H sweep.
  if (p.wait_e) {
    if (leader) wait_for(p, &p.signals->e_ready, p.first, kUpperStalled, kUpperFailed, p.first);
    grid.sync();
    if (stopped(p)) return;
  }
  for (Index n = p.first; n <= last; ++n) {
    const auto next = static_cast<unsigned long long>(n + 1);
    // ---- H sweep, the top plane (sent up) first; then the lower neighbour's H^{n+1/2} ----
    sweep<Real, true, Cpml, PairBlock>(p, p.h_sweep, p.push_h, &p.signals->border_tiles_done[0], n);
    if (p.wait_h && leader) wait_for(p, &p.signals->h_ready, next, kLowerStalled, kLowerFailed, n);
    grid.sync();
    if (stopped(p)) return;
    // ---- E phase: H probes (no H changes in it), the E sweep with the bottom plane (sent down)
    // first, sources ----
    sample_probes(p, n, rank, false);
    sweep<Real, false, Cpml, PairBlock>(p, p.e_sweep, p.push_e, &p.signals->border_tiles_done[1], n);
    // The form that calls inject_sources adds the sweep sources where there are some; the other
    // one never: sources in rounds only (see kernel forms).
    const bool swept = CallSources && p.sweep_sources > 0;
    if constexpr (CallSources)
      if (swept) add_sweep_sources(p, n);
    for (int round = 0; round < (swept ? 0 : p.source_rounds); ++round) {
      grid.sync();
      if constexpr (CallSources)
        inject_sources_call(p, n, rank, round);
      else
        inject_sources(p, n, rank, round);
    }
    // ---- end of step: the upper neighbour's E^{n+1} before the next H sweep ----
    if (p.wait_e && leader && n < last) wait_for(p, &p.signals->e_ready, next, kUpperStalled, kUpperFailed, n);
    grid.sync();
    if (stopped(p)) return;
    if (p.push_e.late && leader) release(p.push_e.ready, next);
    sample_probes(p, n, rank, true);  // E^{n+1}: the next H sweep does not change E
  }
}

// coop_kernel for Real, with or without CPML or node pairs (float without CPML), in the form that
// calls inject_sources or inlines it.
template <typename Real>
const void* coop_kernel_for(bool cpml, int pair_block, bool calls) {
  if constexpr (std::is_same_v<Real, float>) {
    if (pair_block == 512 && !cpml)
      return calls ? reinterpret_cast<const void*>(&coop_kernel<float, false, true, 512>)
                   : reinterpret_cast<const void*>(&coop_kernel<float, false, false, 512>);
    if (pair_block == 1024 && !cpml)
      return calls ? reinterpret_cast<const void*>(&coop_kernel<float, false, true, 1024>)
                   : reinterpret_cast<const void*>(&coop_kernel<float, false, false, 1024>);
  }
  if (cpml)
    return calls ? reinterpret_cast<const void*>(&coop_kernel<Real, true, true>)
                 : reinterpret_cast<const void*>(&coop_kernel<Real, true, false>);
  return calls ? reinterpret_cast<const void*>(&coop_kernel<Real, false, true>)
               : reinterpret_cast<const void*>(&coop_kernel<Real, false, false>);
}

// Occupancy of the kernel for Real (with or without CPML, node pairs) on `device`, the lower of its
// two forms (CallSources or not), so that a grid sized by it fits either (0: it cannot run).
template <typename Real>
int blocks_per_sm(int device, bool cpml = false, int pair_block = 0, std::size_t shared_bytes = 0) {
  YEEX_CUDA(cudaSetDevice(device));
  int least = std::numeric_limits<int>::max();
  for (bool calls : {false, true}) {
    int blocks = 0;
    YEEX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, coop_kernel_for<Real>(cpml, pair_block, calls),
                                                            block_size<Real>(cpml, pair_block), shared_bytes));
    least = std::min(least, blocks);
  }
  return least;
}

// Blocks per SM of the persistent grid: as many as are co-resident, but no more than give every
// block kTilesPerBlock tiles of a sweep: where a GPU holds few cells, a grid.sync() (two or three
// per step) costs more than the sweep gains from more blocks.
constexpr Index kTilesPerBlock = 4;

template <typename Real>
int grid_blocks_per_sm(int device, bool cpml, int pair_block, Index tiles, int multiprocessors,
                       std::size_t shared_bytes) {
  const int resident = blocks_per_sm<Real>(device, cpml, pair_block, shared_bytes);
  const Index useful = (tiles + kTilesPerBlock * multiprocessors - 1) / (kTilesPerBlock * multiprocessors);
  return static_cast<int>(std::clamp<Index>(useful, 1, resident));
}

// Blocks of the persistent grid of a subdomain on `device`, one of `sharing` subdomains there:
// grid_blocks_per_sm's choice, but no more than the sharing subdomains' share of the co-resident
// blocks, so that all their grids are resident together.
template <typename Real>
unsigned grid_blocks(int device, bool cpml, int pair_block, Index tiles, int sharing, std::size_t shared_bytes) {
  int multiprocessors = 0;
  YEEX_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  const int wanted =
      grid_blocks_per_sm<Real>(device, cpml, pair_block, tiles, multiprocessors, shared_bytes) * multiprocessors;
  const int share = blocks_per_sm<Real>(device, cpml, pair_block, shared_bytes) * multiprocessors / sharing;
  return static_cast<unsigned>(std::max(1, std::min(wanted, share)));
}

// Why the kernel cannot run on `devices` (one entry per subdomain, a GPU listed once for each
// subdomain it holds), or "" when it can. Throws CudaError.
std::string unavailable_on(const std::vector<int>& devices) {
  for (std::size_t a = 0; a < devices.size(); ++a) {
    int cooperative = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, devices[a]));
    if (!cooperative) return "GPU " + std::to_string(devices[a]) + " does not support cooperative launches";
    if (blocks_per_sm<float>(devices[a]) == 0 || blocks_per_sm<double>(devices[a]) == 0 ||
        blocks_per_sm<float>(devices[a], true) == 0 || blocks_per_sm<double>(devices[a], true) == 0)
      return "the persistent kernel cannot be co-resident on GPU " + std::to_string(devices[a]) + ": not one block (" +
             std::to_string(kBlockSize<float>) + " threads in float, " + std::to_string(kBlockSize<double>) +
             " in double, " + std::to_string(kBlockSize<float, true>) + " with CPML) fits on a multiprocessor";
    int multiprocessors = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, devices[a]));
    const auto sharing = std::count(devices.begin(), devices.end(), devices[a]);
    if (sharing > multiprocessors)
      return "GPU " + std::to_string(devices[a]) + " holds " + std::to_string(sharing) + " subdomains, more than its " +
             std::to_string(multiprocessors) + " multiprocessors: their persistent grids cannot all be resident";
  }
  return "";
}

}  // namespace
}  // namespace yeex
