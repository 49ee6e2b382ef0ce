// coop: one persistent cooperative kernel per GPU (cudaLaunchCooperativeKernel on the engine's bulk
// stream) runs a whole chunk of steps, halos included, and returns to the host, which then
// fetches probes and snapshots. The one place where exchange and compute meet: the kernel calls
// the cell functions of kernels/yee_stencil.hpp and injects sources and samples probes with the
// arithmetic of the cuda engine, so its fields are bit for bit those of every other backend.
//
// Data path: halos go straight into the neighbour's ghost planes, by plain stores through peer
// pointers, no copy engine, no staging, no second pass: the sweep that computes a plane a
// neighbour needs stores each node there too. After its H sweep a subdomain has stored Hx, Hy of
// its last owned plane into the upper neighbour; after its E sweep and sources, Ex, Ey of its
// first owned plane into the lower neighbour (the halo plan's BeforeE and BeforeH transfers, sent
// by the subdomain that owns the planes).
//
// Border first: the H sweep runs its planes from the top down and the E sweep from the bottom up,
// so a sweep's first tiles are those of the plane it sends. In a short sweep (no bands) each block
// that finishes such a border tile fences its stores out to system scope and counts the tile (a
// device-scope counter); the block that counts the plane's last tile publishes the step to the
// neighbour at once, while the rest of the GPU sweeps its bulk. A long sweep has bands (one
// grid.sync() per band of about 64 planes: they keep the blocks from drifting apart; see sweep and
// band_planes): there the leader publishes after the first band's grid.sync(), and the border tiles
// are neither fenced one by one nor counted (SweepPlan::publish_band). Either way the neighbour's
// flag hop and its polling hide behind the bulk, and a step needs two grid.sync()s plus the bands'. In
// one form of the kernel the E sweep adds a subdomain's sources itself where it has a few
// (add_sweep_sources); else they go in rounds after it, a grid.sync() before each (one, plus one
// for each further source on a node).
//
// Synchronisation: grid.sync() between phases on a GPU. Between GPUs, two counters in each
// subdomain's own memory, holding absolute step numbers, each written by one neighbour only:
//   e_ready = m  the E ghost plane holds the upper neighbour's E^m (published during its step
//                m-1); the H sweep of step n needs e_ready >= n.
//   h_ready = m  the H ghost plane holds the lower neighbour's H^{m-1/2} (published during its
//                H sweep of step m-1); the E sweep of step n needs h_ready >= n+1.
// One thread (the leader) polls and acquires (wait_for) before the grid.sync() that precedes the
// sweep needing the ghost, so no other thread reads a ghost before it has landed (plain loads: the
// kernel uses no read-only cache for fields). A ghost is never overwritten while its owner still
// reads it: only a sweep's border tiles read a ghost plane (the update of plane k reads the other
// field at k+1 for H, k-1 for E), and a subdomain publishes to the neighbour that writes its
// ghost only after its own border tiles are done; the neighbour writes the next version of the
// ghost in its next sweep, after it saw that. A source the rounds add on a sent E plane changes
// it after the E sweep: the thread that adds it stores the sum into the neighbour too, and that
// step's E plane is published after the sources (late), by the leader, after a grid.sync().
// The counters persist, so a call that continues the previous one starts without any host
// synchronisation; the first call, or one whose first step does not follow the last, re-seeds:
// two team barriers around a cudaMemcpyPeer of each sent plane, E and H, and a reset of the
// counters (fields may change between calls only then). The whole planes the seed copies also
// give the ghost its nodes that no sweep updates (they never change afterwards).
// Probes: H^{n+1/2} is sampled during the E sweep's phase and E^{n+1} during the next H sweep's
// (no sweep of a phase writes the other field), so they need no grid.sync() of their own.
// Bounded waits: a spinning thread gives up after kWaitLimitSeconds, records why in its status,
// and poisons the counters its neighbours wait for, so they stop too (a border tile's publish
// racing with the poison can overwrite it: that neighbour then gives up after its own limit);
// every thread leaves at the next grid.sync() and advance() throws std::runtime_error. Never a
// hang.
// Requirements: cuda engine; halo depth 1; cooperative launch; peer access between neighbouring
// GPUs (enabled at construction).
// Subdomains sharing a GPU (--subdomains N over fewer GPUs): their grids split the GPU's
// co-resident blocks, so that all of them fit at once; each spins on the others' flags, so they
// must run concurrently. CUDA promises co-residency within one cooperative grid only: that
// kernels of different streams run side by side when they fit is what the hardware does, not a
// guarantee, and if it ever did not, the bounded waits turn it into an error, never a hang.
// Times: the kernel is one unit, exchange and compute interleaved inside it; times() stays zero.
// Two forms of the kernel, with the source code inlined or called: each subdomain's first few
// launches time both and keep the faster (FormTrials); the bits do not depend on the form.
#include "src/exchange/coop_exchange.hpp"

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "kernels/cuda/node_pairs.cuh"
#include "src/exchange/coop_plan.hpp"
#include "src/exchange/form_trials.hpp"
#include "src/runtime/clock.hpp"

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
constexpr int kBlockSize = PairBlock ? PairBlock : Cpml ? 256 : sizeof(Real) == 4 ? 1024 : 512;
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
  Index shift = 0;     // the receiver's offset of a node: this subdomain's offset + shift
  Index plane = 0;     // this subdomain's offset of the plane's first element (whole padded planes)
  Index elements = 0;  // in the plane, per component
  bool late = false;   // a source changes the plane after the sweep: published after the sources
  unsigned long long* ready = nullptr;  // the receiver's counter
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
  int class_count;             // coop_kernel copies the table into shared memory (shared_classes)
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
  Real* probe_buffer;  // [slot][probe]: slot 0 holds step probe_first (the advance() call's first)
  PlanePush<Real> push_h;  // by the H sweep, to the upper neighbour (the plan's BeforeE)
  PlanePush<Real> push_e;  // by the E sweep, to the lower neighbour (the plan's BeforeH of the next step)
  bool wait_e, wait_h;     // whether an upper / lower neighbour sends to this subdomain
  CoopSignals* signals;    // this subdomain's
  Index first, count;     // this launch's steps (an advance() call may take several launches)
  Index probe_first;
  CpmlView<Real> cpml;     // faces = 0 without CPML
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
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(p.signals->failure).load(
             cuda::memory_order_relaxed) != kFine;
}

// Run by thread 0 of a block that finished a border tile of step n (its threads' stores to the
// receiver fenced out, then __syncthreads()): counts the tile; the plane's last one publishes.
// Every tile of a step is counted before any of the next (grid.sync() between), so the last
// tile of a step is the one that makes the count a multiple of the plane's tiles (the counter
// only grows; it is zeroed when the exchange is seeded).
// Causality: each tile's stores -> fence -> barrier -> its count (release) -> the last count
// (acquire) -> the release store the receiver acquires.
template <typename Real>
__device__ void count_border_tile(const PlanePush<Real>& push, unsigned long long* tiles_done,
                                  unsigned plane_tiles, Index n) {
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
    update_node_pair<UpdateH>(f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, p.material_class, c, static_cast<int>(p.pitch_y),
                              p.pitch_z, [](unsigned cls) { return shared_classes<Real>()[cls]; }, true);
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
  if (cpml) return calls ? reinterpret_cast<const void*>(&coop_kernel<Real, true, true>)
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
int grid_blocks_per_sm(int device, bool cpml, int pair_block, Index tiles, int multiprocessors, std::size_t shared_bytes) {
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
      return "the persistent kernel cannot be co-resident on GPU " + std::to_string(devices[a]) +
             ": not one block (" + std::to_string(kBlockSize<float>) + " threads in float, " +
             std::to_string(kBlockSize<double>) + " in double, " + std::to_string(kBlockSize<float, true>) +
             " with CPML) fits on a multiprocessor";
    int multiprocessors = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, devices[a]));
    const auto sharing = std::count(devices.begin(), devices.end(), devices[a]);
    if (sharing > multiprocessors)
      return "GPU " + std::to_string(devices[a]) + " holds " + std::to_string(sharing) +
             " subdomains, more than its " + std::to_string(multiprocessors) +
             " multiprocessors: their persistent grids cannot all be resident";
  }
  return "";
}

template <typename Real>
class CoopExchange final : public HaloExchange<Real> {
 public:
  CoopExchange(ExchangeContext<Real> context, std::string name)
      : HaloExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto& ctx = this->context_;
    if (ctx.plan.halo_depth != 1 || !ctx.plan.transfers(HaloPhase::BeforeBlock).empty())
      throw std::invalid_argument("coop: runs with --halo-depth 1 only");
    std::vector<int> devices;
    for (Engine<Real>* e : ctx.engines) {
      cuda_engine_view(*e);  // throws unless it is the cuda engine
      devices.push_back(e->device());
    }
    if (const std::string why = unavailable_on(devices); !why.empty()) throw std::invalid_argument("coop: " + why);
    try {
      set_up(devices);
    } catch (...) {
      release_memory();
      throw;
    }
  }

  ~CoopExchange() override { release_memory(); }

  std::string name() const override { return name_; }

  // The kernel form the subdomains run (one for all: agree, through the solver's thread team), and
  // how it was chosen, then on how many of the subdomains that hold sources the called form adds
  // them in the E sweep: "kernel form sources called (timed: 12.63 us/step inlined, 13.77 called);
  // the called form sweeps the sources of 1 of 2 slabs with sources".
  std::string choices() const override {
    std::string text =
        "kernel form sources " + sub_.front().trials.describe("inlined", "called", "--coop-form");
    const auto count = [&](auto holds) { return std::count_if(sub_.begin(), sub_.end(), holds); };
    const auto with = count([](const Subdomain& me) { return me.params.source_count > 0; });
    const auto swept = count([](const Subdomain& me) { return me.params.sweep_sources > 0; });
    if (with > 0)
      text += "; the called form sweeps the sources of " + std::to_string(swept) + " of " + std::to_string(with) +
              (with > 1 ? " slabs" : " slab") + " with sources";
    const auto paired = count([](const Subdomain& me) { return me.pair_block > 0; });
    text += paired == 0 ? "; one node a thread"
                        : "; node pairs on " + std::to_string(paired) + " of " + std::to_string(sub_.size()) +
                              (sub_.size() > 1 ? " slabs" : " slab") + " (blocks of " +
                              std::to_string(sub_.front().pair_block) + " threads)";
    // The bands of the first banded sweep (long sweeps only: band_planes).
    for (const Subdomain& me : sub_)
      if (const unsigned band = me.params.e_sweep.band_planes; band > 0 && band < me.params.e_sweep.nz) {
        text += "; bands of " + std::to_string(band) + " planes";
        break;
      }
    return text;
  }

  Index settling_steps(int s) const override { return sub_[s].trials.steps_to_decide(); }

  // Runs the steps in one launch, or, while the subdomain still times the kernel's two forms
  // (FormTrials), in trials. A launch that follows another in the same call first meets the
  // team, so that it starts only when every subdomain's previous launch has ended, as a call's
  // first launch does (the solver joins its threads between calls). Without that meeting, slabs
  // sharing a GPU could deadlock at a trial (a kernel spinning for its neighbour's plane while the
  // neighbour's kernel never started, until the wait limit fired), and a trial would time its
  // neighbours' last launch.
  // Every subdomain runs the same launches, so every one meets the same number of times.
  void advance(int s, Index first, Index count) override {
    Subdomain& me = sub_[s];
    for (Index done = 0; done < count;) {
      const FormTrials::Launch next = me.trials.next(count - done);
      if (done > 0 && sub_.size() > 1 && this->context_.team) this->context_.team->barrier();
      const auto t0 = Clock::now();
      launch(s, first, done, next.steps, next.form);
      if (next.timed) {
        me.trials.record(next.form, seconds_since(t0) / next.steps);
        if (me.trials.decided()) agree(s);
      }
      done += next.steps;
    }
  }

 private:
  // Steps first + skip .. first + skip + count - 1 of the advance() call from step `first`.
  void launch(int s, Index call_first, Index skip, Index count, bool calls_sources) {
    Subdomain& me = sub_[s];
    const Index first = call_first + skip;
    try {
      if (failed_.load()) throw std::runtime_error("coop: an earlier advance failed; the fields are inconsistent");
      YEEX_CUDA(cudaSetDevice(me.device));
      if (first != me.next_step) seed(s, first);
      me.next_step = -1;
      CoopKernelParams<Real> params = me.params;
      params.first = first;
      params.count = count;
      params.probe_first = call_first;
      void* args[] = {&params};
      const auto stream = static_cast<cudaStream_t>(me.stream);
      // me.grid fits either form of the kernel (blocks_per_sm).
      YEEX_CUDA(cudaLaunchCooperativeKernel(me.kernels[calls_sources], dim3(me.grid),
                                            dim3(block_size<Real>(params.cpml.faces > 0, me.pair_block)), args,
                                            me.shared_bytes, stream));
      YEEX_CUDA(cudaMemcpyAsync(me.status, me.signals, sizeof(CoopSignals), cudaMemcpyDeviceToHost, stream));
      YEEX_CUDA(cudaStreamSynchronize(stream));
    } catch (...) {
      failed_ = true;
      poison_neighbours(s);  // they stop at once instead of waiting out the limit
      throw;
    }
    if (me.status->failure != kFine) {
      failed_ = true;
      throw std::runtime_error(failure_message(s));
    }
    me.next_step = first + count;
  }

  // After subdomain s's last trial: every subdomain takes the form the team's times choose (for
  // each form, the slowest subdomain's best trial), since they step together and every one
  // reaches its last trial in the same call; choices() reports the team's times.
  void agree(int s) {
    FormTrials& mine = sub_[s].trials;
    if (sub_.size() < 2 || !this->context_.team) return;
    this->context_.team->barrier();  // every subdomain's trials recorded
    double team[2] = {0, 0};
    for (const Subdomain& other : sub_)
      for (int form = 0; form < 2; ++form) team[form] = std::max(team[form], other.trials.best(form));
    this->context_.team->barrier();  // every subdomain has read the others' times
    mine.agree(team[0], team[1]);
  }

  struct Subdomain {
    CoopKernelParams<Real> params{};
    int device = -1;
    unsigned grid = 0;
    int pair_block = 0;              // node pairs in the sweeps in blocks of this many threads, or 0 (pair_block_for)
    const void* kernels[2] = {};     // coop_kernel's instantiations: [0] inlines inject_sources, [1] calls it
    FormTrials trials{2, std::nullopt};  // which of them runs (set_up)
    void* stream = nullptr;
    CoopSignals* signals = nullptr;  // device memory of `device`
    CoopSignals* status = nullptr;   // pinned host copy, read after each launch
    int upper = kNoNeighbour, lower = kNoNeighbour;  // the subdomains that send to this one
    int e_receiver = kNoNeighbour, h_receiver = kNoNeighbour;  // the ones this one sends to
    Index next_step = -1;            // the step the previous call stopped before
    std::size_t shared_bytes = 0;    // of each block: the coefficient table (shared_classes)
  };

  // Node pairs for subdomain s (float without CPML, both sweeps' boxes even: pairs_fit, the kernel
  // resident on its GPU) in blocks of 1024 threads where it holds at most kWidePairNodesPerSm nodes
  // a multiprocessor, else of 512; 0: one node a thread. ExchangeOptions::coop_pairs and
  // coop_pair_block (test seams) turn pairs off or fix the shape.
  int pair_block_for(int s, bool cpml) const {
    if (!std::is_same_v<Real, float> || cpml) return 0;
    const auto& ctx = this->context_;
    if (!ctx.options.coop_pairs) return 0;
    const SweepRanges ranges = update_ranges(*ctx.decomposition, s, 1, 0);
    const FieldLayout& L = ctx.engines[s]->layout();
    if (!pairs_fit(L, ctx.decomposition->to_local(s, ranges.h)) || !pairs_fit(L, ctx.decomposition->to_local(s, ranges.e)))
      return 0;
    const int device = ctx.engines[s]->device();
    int multiprocessors = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    int block = ranges.h.count() <= kWidePairNodesPerSm * multiprocessors ? 1024 : 512;
    if (const int fixed = ctx.options.coop_pair_block; fixed == 512 || fixed == 1024) block = fixed;
    return blocks_per_sm<Real>(device, false, block, sub_[s].shared_bytes) > 0 ? block : 0;
  }

  // The bands of the sweeps on `device`: a span in proportion to its L2 (band_span_bytes), or the
  // planes ExchangeOptions::coop_band fixes.
  BandRule band_rule(int device) const {
    int l2 = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    return {band_span_bytes(l2), this->context_.options.coop_band};
  }

  void set_up(const std::vector<int>& devices) {
    const auto& ctx = this->context_;
    const SlabDecomposition& d = *ctx.decomposition;
    const int count = static_cast<int>(ctx.engines.size());
    sub_.resize(count);
    Index largest = 0;  // nodes of the largest subdomain's H sweep
    std::vector<std::vector<PointSource>> sources(count);  // [subdomain], as its engine holds them
    for (int s = 0; s < count; ++s) {
      Subdomain& me = sub_[s];
      me.device = devices[s];
      YEEX_CUDA(cudaSetDevice(me.device));
      const NodeRange owned = d.to_local(s, update_ranges(d, s, 1, 0).h);
      largest = std::max(largest, owned.count());
      const bool cpml = ctx.engines[s]->cpml().faces > 0;
      me.shared_bytes = shared_class_bytes<Real>(cuda_engine_view(*ctx.engines[s]).class_count);
      me.pair_block = pair_block_for(s, cpml);
      const int pair = me.pair_block ? 2 : 1;
      const Index tiles =
          make_sweep_plan(ctx.engines[s]->layout(), owned, 1, false, block_size<Real>(cpml, me.pair_block), pair).tiles;
      const auto sharing = static_cast<int>(std::count(devices.begin(), devices.end(), me.device));
      me.grid = grid_blocks<Real>(me.device, cpml, me.pair_block, tiles, sharing, me.shared_bytes);
      YEEX_CUDA(cudaMalloc(&me.signals, sizeof(CoopSignals)));
      YEEX_CUDA(cudaMemset(me.signals, 0, sizeof(CoopSignals)));
      me.status = static_cast<CoopSignals*>(allocate_pinned(sizeof(CoopSignals)));
    }
    // The same trial schedule for every subdomain: steps from the largest one.
    Index trial_steps = FormTrials::steps_for(largest);
    if (ctx.options.coop_trial_steps > 0) trial_steps = ctx.options.coop_trial_steps;
    using CoopForm = ExchangeOptions::CoopForm;
    std::optional<bool> fixed;
    if (ctx.options.coop_form != CoopForm::automatic) fixed = ctx.options.coop_form == CoopForm::called;
    const FormTrials trials(trial_steps, fixed);
    for (int s = 0; s < count; ++s) {
      const CudaEngineView<Real> v = cuda_engine_view(*ctx.engines[s]);
      const SweepRanges ranges = update_ranges(d, s, 1, 0);
      CoopKernelParams<Real>& p = sub_[s].params;
      p = {};
      p.fields = v.fields;
      p.material_class = v.material_class;
      p.classes = v.classes;
      p.class_count = v.class_count;
      p.pitch_y = v.layout.pitch_y;
      p.pitch_z = v.layout.pitch_z;
      const int pair_block = sub_[s].pair_block, pair = pair_block ? 2 : 1;
      const int threads = block_size<Real>(v.cpml.faces > 0, pair_block);
      const BandRule bands = band_rule(sub_[s].device);
      p.h_sweep =
          make_sweep_plan(v.layout, d.to_local(s, ranges.h), sub_[s].grid, true, threads, pair, sizeof(Real), bands);
      p.e_sweep =
          make_sweep_plan(v.layout, d.to_local(s, ranges.e), sub_[s].grid, false, threads, pair, sizeof(Real), bands);
      for (bool calls : {false, true})
        sub_[s].kernels[calls] = coop_kernel_for<Real>(v.cpml.faces > 0, pair_block, calls);
      sub_[s].trials = trials;
      p.sources = v.sources;
      p.source_count = v.source_count;
      p.source_rounds = v.source_rounds;
      p.source_samples = v.source_samples;
      p.probes = v.probes;
      p.probe_count = v.probe_count;
      p.probe_buffer = v.probe_buffer;
      p.signals = sub_[s].signals;
      p.cpml = v.cpml;
      sub_[s].stream = v.stream;
      sources[s] = host_sources(v);
      const std::vector<SweepSourcePlace> places = ctx.options.coop_sweep_sources
                                                         ? sweep_source_places(v.layout, p.e_sweep, threads / kTileX, sources[s])
                                                         : std::vector<SweepSourcePlace>{};
      p.sweep_sources = static_cast<int>(places.size());
      for (std::size_t q = 0; q < places.size(); ++q)
        p.source_key[q] = places[q].key, p.source_thread[q] = places[q].thread;
    }
    // The plan's transfers, each sent by the subdomain that owns its planes.
    for (HaloPhase phase : {HaloPhase::BeforeH, HaloPhase::BeforeE}) {
      const bool e_planes = phase == HaloPhase::BeforeH;
      for (const HaloTransfer& t : ctx.plan.transfers(phase)) {
        const SlabSubdomain& receiver = d.subdomain(t.to);
        if (t.from != (e_planes ? receiver.upper : receiver.lower))
          throw std::invalid_argument("coop: the halo plan sends " + std::string(phase_name(phase)) +
                                      " planes from a subdomain that is not the expected neighbour");
        enable_peer_access(devices[t.from], devices[t.to]);
        CoopKernelParams<Real>& sender = sub_[t.from].params;
        CoopKernelParams<Real>& taker = sub_[t.to].params;
        PlanePush<Real>& push = e_planes ? sender.push_e : sender.push_h;
        bool& waits = e_planes ? taker.wait_e : taker.wait_h;
        if (push.components || waits)
          throw std::invalid_argument("coop: the halo plan has two " + std::string(phase_name(phase)) +
                                      " transfers for one subdomain");
        // The sender's sweep stores the plane's nodes as it computes them: the plane must be the
        // first that sweep runs (halo depth 1: its top H plane, its bottom E plane).
        SweepPlan& sweep = e_planes ? sender.e_sweep : sender.h_sweep;
        const Index plane = d.local_k(t.from, t.source.begin);
        if (t.source.count() != 1 || sweep.tiles == 0 || plane != first_plane(sweep))
          throw std::logic_error("coop: the " + std::string(phase_name(phase)) +
                                 " plane sent is not the first plane of its sweep");
        sweep.border_tiles = sweep.tiles_x * sweep.tiles_y;
        // A banded sweep publishes its first plane after its first band (see sweep).
        if (sweep.band_planes && sweep.band_planes < sweep.nz) sweep.publish_band = sweep.band_planes;
        const FieldLayout& from_layout = ctx.engines[t.from]->layout();
        const FieldLayout& to_layout = ctx.engines[t.to]->layout();
        if (from_layout.pitch_z != to_layout.pitch_z)
          throw std::logic_error("coop: halo planes differ in size");
        push.plane = this->plane_offset(t.from, t.source.begin);
        push.shift = this->plane_offset(t.to, t.destination.begin) - push.plane;
        push.elements = from_layout.pitch_z;
        for (Component c : t.components) {
          push.component[push.components] = c;
          push.from[push.components] = ctx.engines[t.from]->field_data(c);
          push.to[push.components] = ctx.engines[t.to]->field_data(c);
          ++push.components;
        }
        // A source on a sent E plane changes it after the sweep, which stored it into the
        // receiver: the rounds add it (inject_sources), and the plane is published late.
        if (e_planes && this->sends_a_source(t, sources[t.from])) {
          push.late = true;
          sender.sweep_sources = 0;
        }
        CoopSignals* theirs = sub_[t.to].signals;
        push.ready = e_planes ? &theirs->e_ready : &theirs->h_ready;
        waits = true;
        (e_planes ? sub_[t.to].upper : sub_[t.to].lower) = t.from;
        (e_planes ? sub_[t.from].e_receiver : sub_[t.from].h_receiver) = t.to;
      }
    }
  }

  // Every subdomain calls it at the same call (they see the same steps): makes each ghost plane
  // hold the neighbour's plane as it stands (E^first, H^{first-1/2}) and sets the counters to say so.
  void seed(int s, Index first) {
    Subdomain& me = sub_[s];
    const auto stream = static_cast<cudaStream_t>(me.stream);
    const bool team = this->context_.team && sub_.size() > 1;
    if (team) this->context_.team->barrier();  // no kernel of an earlier call is running
    const std::pair<const PlanePush<Real>*, int> pushes[] = {{&me.params.push_e, me.e_receiver},
                                                             {&me.params.push_h, me.h_receiver}};
    for (const auto& [push, receiver] : pushes)
      for (int c = 0; c < push->components; ++c)
        YEEX_CUDA(cudaMemcpyPeerAsync(push->to[c] + push->plane + push->shift, sub_[receiver].device,
                                      push->from[c] + push->plane, me.device, push->elements * sizeof(Real), stream));
    me.status->e_ready = static_cast<unsigned long long>(first);
    me.status->h_ready = static_cast<unsigned long long>(first);
    me.status->failure = kFine;
    me.status->failed_step = 0;
    me.status->border_tiles_done[0] = me.status->border_tiles_done[1] = 0;
    YEEX_CUDA(cudaMemcpyAsync(me.signals, me.status, sizeof(CoopSignals), cudaMemcpyHostToDevice, stream));
    YEEX_CUDA(cudaStreamSynchronize(stream));
    if (team) this->context_.team->barrier();  // every ghost plane and counter set before any kernel starts
  }

  // From the host, in the neighbours' own contexts (this GPU's may be the broken one); best
  // effort: they give up after the wait limit anyway.
  void poison_neighbours(int s) noexcept {
    static const unsigned long long abort = kAbortBit;
    const Subdomain& me = sub_[s];
    const std::pair<int, unsigned long long*> theirs[2] = {{me.h_receiver, me.params.push_h.ready},
                                                           {me.e_receiver, me.params.push_e.ready}};
    for (const auto& [receiver, counter] : theirs)
      if (counter && (cudaSetDevice(sub_[receiver].device) != cudaSuccess ||
                      cudaMemcpy(counter, &abort, sizeof(abort), cudaMemcpyHostToDevice) != cudaSuccess))
        cudaGetLastError();
    cudaSetDevice(me.device);
  }

  std::string failure_message(int s) const {
    const Subdomain& me = sub_[s];
    const auto failure = me.status->failure;
    const bool upper = failure == kUpperStalled || failure == kUpperFailed;
    const int other = upper ? me.upper : me.lower;
    const std::string who = std::string(upper ? "upper" : "lower") + " neighbour (subdomain " + std::to_string(other) +
                            ", GPU " + std::to_string(other >= 0 ? sub_[other].device : -1) + ")";
    const std::string what = upper ? "its E plane" : "its H plane";
    const std::string at = std::to_string(s) + " (GPU " + std::to_string(me.device) + ")";
    if (failure == kUpperStalled || failure == kLowerStalled)
      return "coop: subdomain " + at + " waited more than " + std::to_string(kWaitLimitSeconds) + " s for " + what +
             " from its " + who + " at step " + std::to_string(me.status->failed_step) +
             ": that kernel stopped or never started (its thread failed, or its GPU is hung or busy)";
    return "coop: subdomain " + at + " stopped at step " + std::to_string(me.status->failed_step) + ": its " + who +
           " gave up first";
  }

  void release_memory() noexcept {
    for (Subdomain& me : sub_) {
      if (me.signals) {
        cudaSetDevice(me.device);
        cudaFree(me.signals);
        me.signals = nullptr;
      }
      free_pinned(me.status);
      me.status = nullptr;
    }
  }

  std::string name_;
  std::vector<Subdomain> sub_;
  std::atomic<bool> failed_{false};
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_coop_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<CoopExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_coop_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_coop_exchange(ExchangeContext<double>, std::string);

std::string coop_exchange_unavailable(const std::vector<int>& devices) {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) {
    cudaGetLastError();
    return "no usable CUDA device";
  }
  std::string why;
  try {
    why = unavailable_on(devices);
  } catch (const CudaError& e) {
    why = e.what();
  }
  cudaSetDevice(previous);
  return why;
}

}  // namespace yeex
