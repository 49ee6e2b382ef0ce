// overlap, host-staged and b2r on GPUs: the border-first schedule
// (src/exchange/border_first_exchange.hpp) with the halo planes copied by CUDA copies right behind
// the sweeps that computed them, on the border lane, while the bulk lane sweeps the rest of the
// slab. GPUs are ordered by CUDA events (timing disabled); no host thread waits for a GPU inside
// the step loop. Two transports:
//   peer (overlap; b2r where slabs share a GPU, or forced): every GPU copies the planes its
//     neighbours need straight into their ghost planes, over NVLink with peer access: by the copy
//     engines (cudaMemcpyPeerAsync, one copy per component and psi chunk), or by one kernel per
//     phase (peer_kernel: push_kernel stores every run of the phase, to every receiver, through
//     peer pointers). A copy costs the host thread an API call and the lane a copy's latency, one
//     after the other: B+2R sends six components to each neighbour, twelve copies per block. The
//     kernel costs one launch, and its runs move side by side, which pays off for b2r's many
//     small copies on small grids (docs/performance.md#border-split);
//   staged (host-staged, b2r under --no-peer): every GPU copies them down into a pinned host
//     buffer of the transfer (D2H), and the receiver copies the buffer up into its ghost planes
//     (H2D) on its own border lane once the sender's event says the D2H is done. No peer access.
//   flags (graph; b2r where each GPU holds one slab, registry.cpp): the push kernel's pushes, its
//     last block signalling the receivers' counters (src/exchange/peer_flags.hpp) once every
//     block's stores are fenced; await() is a one-thread kernel that waits for them. No event, no
//     host barrier in a step: the schedule records the steps once and replays them as a CUDA graph
//     (border_first_exchange.hpp, Replay). The counters stand where the events stand below (a
//     signal where a pushed or ready record is, a wait where its wait is), and as they only grow,
//     the host barriers that order records before waits are not needed: a wait for the n-th signal
//     cannot be met by an earlier one, and a later one implies it (a sender's next signal follows
//     its wait for this receiver's, which follows the reads it would overwrite). A replayed step
//     costs the host a fraction of an issued one.
//     At R = 1 without CPML, for planes of at most pushing_plane_limit, graph sweeps instead with
//     pushing sweeps (border_first_exchange.hpp; set_up_pushing_sweeps): the sweep kernels' first
//     blocks wait on the same counters, store the border plane into the receiver and signal, so
//     a step is two kernels and no push or wait kernel (docs/performance.md#graph-pushing-limit).
// `overlap` and `host-staged` run halo depth 1, `b2r` these transports with R > 1, `graph`
// any depth.
//
// Data path. Subdomain s owns planes [b, e); L is its lower and U its upper neighbour. Each
// transfer of the halo plan is pushed by its sender: per component one copy of its run of whole
// padded planes, then its CPML psi chunks (HaloExchange::psi_chunks; B+2R only). issue() pushes
// s's transfers of the phase (peer: into the receivers; staged: into the buffers) and records
// pushed[s][phase] on s's border lane; await() meets the other threads at a barrier and makes the
// border lane wait for pushed[sender][phase] of every transfer into s (staged: then copies each
// such buffer up, on the same lane, so what follows on it sees the planes).
//
// HALO DEPTH 1. The before-h transfer is "s pushes Ex, Ey of plane b into L's ghost plane b", the
// before-e one "s pushes Hx, Hy of plane e-1 into U's ghost plane e-1". Step n of subdomain s on
// its border lane, as the schedule and this transport issue it:
//
//   follow bulk_done                      (step n-1 complete, its sources included)
//   push Ex, Ey of b -> L; record e_pushed
//   ----------- host barrier B: every e_pushed of step n is recorded -----------
//   wait U.e_pushed                       (E^n of plane e landed; staged: then copy it up)
//   H over plane e-1
//   push Hx, Hy of e-1 -> U; record h_pushed
//   ----------- host barrier A: every h_pushed of step n is recorded -----------
//   wait L.h_pushed                       (H of plane b-1 landed; staged: then copy it up)
//   follow bulk_h_done; E over planes b and e-1; mark border_e_done
//
// Synchronisation contract across GPUs (the schedule's header argues the rest):
//   ghost reads: H(e-1) reads the E ghost e -> waits U.e_pushed (staged: and the copy up, on the
//     same lane); E(b) reads the H ghost b-1 -> waits L.h_pushed (likewise).
//   remote overwrites (WAR), peer: my H push into U's ghost b_U-1 overwrites what U's E(b_U) of
//     step n-1 read; that sweep precedes U's e_pushed of step n on U's border lane, and my H
//     sweep, hence my push, waited for it. My E push of step n into L's ghost e_L overwrites what
//     L's H(e_L-1) of step n-1 read; that sweep precedes L's h_pushed of step n-1 on L's border
//     lane, which my border lane waited for before my E(b) of step n-1, ahead of this push.
//   staged: a receiver writes its ghost planes itself, on its border lane, which also runs every
//     sweep that reads them. What is shared is the buffer: my D2H of step n+1 overwrites what the
//     receiver's H2D of step n read, and the same chains order them: L's copy up of my E planes
//     (step n) precedes L's h_pushed of step n on L's lane, which my lane waited for before my E
//     push of step n+1; U's copy up of my H planes (step n) precedes U's e_pushed of step n+1,
//     which my lane waits for before my H push of step n+1.
// Host-side ordering: cudaStreamWaitEvent waits for the record enqueued at the time of the call,
// so a wait on a peer's event must come after the peer's record for this step and before its
// next one. The barriers give exactly that: U.e_pushed is recorded before barrier B of step n,
// waited after B and before barrier A of step n, recorded again (step n+1) after A; L.h_pushed
// is recorded before A of step n, waited after A and before B of step n+1, recorded again after
// that B.
//
// HALO DEPTH R > 1 (b2r). One phase per block: s pushes E [b, b+R) and H [b, b+R-1) to L, E and
// H [e-R, e) to U, with their psi. Its ghost planes are read by the bulk lane too, in the
// substeps after the exchange, and no event a sender waits for stands for those reads; so each
// receiver first says its ghost planes are free. At the first step of a block, on s's border lane:
//
//   follow bulk_done                      (the previous block complete)
//   record ready                          (sent planes final, ghost planes no longer read)
//   ----------- host barrier X: every ready of this block is recorded -----------
//   wait L.ready, U.ready; push to L and U; record pushed
//   ----------- host barrier Y: every pushed of this block is recorded -----------
//   wait L.pushed, U.pushed (staged: copy up); then the border sweeps
//
//   ghost reads: the border sweeps follow the waits on pushed, the bulk reads no received plane
//     (border split), and the later substeps' bulk sweeps follow the border marks.
//   remote overwrites: my push overwrites the neighbour's ghost planes (staged: its buffer from
//     me, which it copied up in the previous block) after its ready, which follows its
//     bulk_done: every read of them in the previous block (the bulk lane followed border_e_done,
//     which comes after the copies up on the border lane).
//   my sent planes: overwritten only by my border sweeps, after the push on the same lane.
//   host-side ordering: ready is recorded before X and waited between X and Y; its next record
//     comes in the next block, after Y, which no thread passes before every wait on it is
//     enqueued. pushed is recorded between X and Y and waited after Y; its next record comes
//     after the next block's X, which no thread passes before every wait on it is enqueued.
//
// Marks are recorded and followed by one thread in program order. As every wait refers to work
// already enqueued, the GPUs never depend on host work not yet issued: the host may run ahead
// freely, no deadlock. start() synchronises the GPU and meets the others at a barrier, so a call
// depends on no state left by an earlier one (every GPU idle: nobody still reads a ghost plane
// the first pushes overwrite): one host synchronisation per call, none per step.
// Requirements: cuda engine; peer: peer access between neighbouring GPUs (enabled at
// construction). times() stay zero: the copies overlap the sweeps on the GPUs, where host clocks
// cannot separate them.
#include "src/exchange/overlap_exchange.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/border_first_exchange.hpp"
#include "src/exchange/cuda_handles.hpp"
#include "src/exchange/peer_flags.hpp"
#include "src/exchange/staging_buffer.hpp"

namespace yeex {
namespace {

// The runs of one push_kernel launch: every copy one subdomain pushes in one phase. Whole padded
// planes and psi chunks; a run whose ends are 16-byte aligned moves in uint4, the others in Real.
template <typename Real>
struct PushRuns {
  static constexpr int kMaxRuns = 64;
  int count = 0;
  const Real* from[kMaxRuns] = {};
  Real* to[kMaxRuns] = {};  // another GPU's memory, through peer access
  Index elements[kMaxRuns] = {};
  bool wide[kMaxRuns] = {};  // from, to and the byte count multiples of 16
  SignalTargets signal;      // flags transport: the receivers' counters, signalled by the last block
};

// Block y moves run y; the blocks along x stride through it.
template <typename Real>
__global__ void push_kernel(const __grid_constant__ PushRuns<Real> runs) {
  const int r = blockIdx.y;
  const Index first = Index(blockIdx.x) * blockDim.x + threadIdx.x, stride = Index(gridDim.x) * blockDim.x;
  if (runs.wide[r]) {
    const auto* from = reinterpret_cast<const uint4*>(runs.from[r]);
    auto* to = reinterpret_cast<uint4*>(runs.to[r]);
    const Index n = runs.elements[r] * Index(sizeof(Real)) / Index(sizeof(uint4));
    for (Index e = first; e < n; e += stride) to[e] = from[e];
  } else {
    for (Index e = first; e < runs.elements[r]; e += stride) runs.to[r][e] = runs.from[r][e];
  }
  signal_when_last(runs.signal);
}

// The largest plane (nodes) for which graph takes pushing sweeps: on large planes a sweep kernel
// whose first blocks push runs longer than the plain one with the same memory traffic, and the
// border split (the border planes on their own stream beside the bulk) wins. The limit was measured
// on GPUs of kPushingPlaneSms multiprocessors; a GPU with more sweeps a plane in proportionally
// less time, so the limit scales with the multiprocessor count (docs/performance.md#graph-pushing-limit).
constexpr Index kPushingPlaneNodes = Index(192) * 192;
constexpr int kPushingPlaneSms = 132;

// The limit for the GPUs of `engines` (the fewest multiprocessors among them).
template <typename Real>
Index pushing_plane_limit(const std::vector<Engine<Real>*>& engines) {
  int fewest = kPushingPlaneSms;
  bool any = false;
  for (const Engine<Real>* e : engines) {
    if (!e) continue;
    int sms = 0;
    YEEX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, e->device()));
    fewest = any ? std::min(fewest, sms) : sms;
    any = true;
  }
  return kPushingPlaneNodes * fewest / kPushingPlaneSms;
}

constexpr unsigned kPushBlock = 256;
// Blocks per run along x: enough to fill the links, few enough that the pushes leave the bulk
// sweep most of the GPU.
constexpr unsigned kPushBlocksPerRun = 8;

template <typename Real>
class OverlapExchange final : public BorderFirstExchange<Real> {
 public:
  OverlapExchange(ExchangeContext<Real> context, std::string name, OverlapTransport transport,
                  std::string transport_choice)
      : BorderFirstExchange<Real>(std::move(context)), name_(std::move(name)),
        transport_choice_(std::move(transport_choice)),
        staged_(transport == OverlapTransport::staged),
        kernel_(transport == OverlapTransport::peer_kernel || transport == OverlapTransport::peer_flags) {
    const auto& plan = this->context_.plan;
    const auto& engines = this->context_.engines;
    for (Engine<Real>* e : engines)
      if (e->device() < 0) throw std::invalid_argument("the " + name_ + " exchange needs the cuda engine");
    pushes_.resize(engines.size());
    pushed_.resize(engines.size());
    senders_.resize(engines.size());
    receivers_.resize(engines.size());
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : plan.transfers(phase)) {
        if (!staged_) enable_peer_access(engines[t.from]->device(), engines[t.to]->device());
        pushes_[t.from][static_cast<int>(phase)].push_back(make_push(t));
        Event& pushed = pushed_[t.from][static_cast<int>(phase)];
        if (!pushed && transport != OverlapTransport::peer_flags) pushed = make_event(engines[t.from]->device());
        const auto add = [](std::vector<int>& list, int s) {
          if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
        };
        add(senders_[t.to][static_cast<int>(phase)], t.from);  // B+2R: E and H from one sender
        add(receivers_[t.from][static_cast<int>(phase)], t.to);
      }
    if (kernel_) set_up_push_runs();
    if (transport == OverlapTransport::peer_flags) {
      std::vector<int> devices;
      for (Engine<Real>* e : engines) devices.push_back(e->device());
      flags_ = std::make_unique<PeerFlags>(devices);
      for (std::size_t s = 0; s < engines.size(); ++s)  // the push kernel signals its receivers
        for (int phase = 0; phase < kHaloPhaseCount; ++phase)
          push_runs_[s][phase].runs.signal = flags_->targets(static_cast<int>(s), receivers_[s][phase], phase);
      set_up_pushing_sweeps();
    } else if (plan.halo_depth > 1) {  // R = 1 needs no ready: the events of the other phase stand for the ghost reads
      for (Engine<Real>* e : engines) ready_.push_back(make_event(e->device()));
    }
  }

  std::string name() const override { return name_; }
  std::string choices() const override {
    if (!transport_choice_.empty()) return transport_choice_;
    if (!flags_ || !this->exchanges_any()) return "";
    return pushing_ ? "pushing sweeps (each sweep one kernel whose first blocks push its border plane)"
                    : "border split (" + no_pushing_ + ")";
  }

 protected:
  void start(int s) override {
    Engine<Real>& engine = *this->context_.engines[s];
    YEEX_CUDA(cudaSetDevice(engine.device()));
    engine.synchronize();
    this->context_.team->barrier();  // every GPU idle: nobody still reads a ghost plane, every owned plane is final
    if (pushing_ && !primed_[s]) {
      // The first H sweep's wait: the E planes of the start, which no E sweep has pushed.
      issue_flagged(s, HaloPhase::BeforeH, bulk(s));
      primed_[s] = true;
    }
  }

  bool pushing_sweeps() const override { return pushing_; }
  void sweep_pushing(int s, const NodeRange& h, const NodeRange& e) override {
    Engine<Real>& engine = *this->context_.engines[s];
    const auto& [push_h, push_e] = plane_pushes_[s];
    if (push_h.components > 0)
      cuda_sweep_pushing(engine, true, h, push_h);
    else
      engine.update_h(h, Lane::bulk);
    if (push_e.components > 0)
      cuda_sweep_pushing(engine, false, e, push_e);
    else
      engine.update_e(e, Lane::bulk);
  }

  bool replayable() const override { return flags_ != nullptr; }

  void finish(int s) override {
    if (!flags_) return;
    this->context_.engines[s]->synchronize();
    if (const std::string why = flags_->failure(s); !why.empty()) throw std::runtime_error(name_ + ": " + why);
  }

  void issue(int s, HaloPhase phase) override {
    if (flags_) return issue_flagged(s, phase, border(s));
    const cudaStream_t stream = border(s);
    const auto& pushes = pushes_[s][static_cast<int>(phase)];
    if (!ready_.empty()) {
      record(ready_[s], stream);
      this->context_.team->barrier();  // every ready of this block recorded
      for (const Push& p : pushes) wait(stream, ready_[p.transfer->to]);
    }
    if (pushes.empty()) return;
    if (kernel_) {
      const PushLaunch& launch = push_runs_[s][static_cast<int>(phase)];
      YEEX_CUDA(cudaSetDevice(this->context_.engines[s]->device()));
      push_kernel<Real><<<launch.grid, kPushBlock, 0, stream>>>(launch.runs);
      YEEX_CUDA(cudaGetLastError());
    } else {
      for (const Push& p : pushes)
        for (const Copy& c : p.copies)
          if (staged_)
            YEEX_CUDA(
                cudaMemcpyAsync(p.buffer->data() + c.staged_at, c.source, c.bytes, cudaMemcpyDeviceToHost, stream));
          else
            YEEX_CUDA(cudaMemcpyPeerAsync(c.destination, p.to_device, c.source, p.from_device, c.bytes, stream));
    }
    record(pushed_[s][static_cast<int>(phase)], stream);
  }

  void await(int s, HaloPhase phase) override {
    if (flags_) return flags_->wait(s, senders_[s][static_cast<int>(phase)], static_cast<int>(phase), border(s));
    // Every push of this phase and step recorded (and every wait on the previous one enqueued).
    this->context_.team->barrier();
    const cudaStream_t stream = border(s);
    for (const HaloTransfer& t : this->context_.plan.transfers(phase)) {
      if (t.to != s) continue;
      wait(stream, pushed_[t.from][static_cast<int>(phase)]);
      if (!staged_) continue;
      for (const Push& p : pushes_[t.from][static_cast<int>(phase)])
        if (p.transfer == &t)  // a sender may have two transfers to s in a phase (B+2R: E and H)
          for (const Copy& c : p.copies)
            YEEX_CUDA(cudaMemcpyAsync(c.destination, p.buffer->data() + c.staged_at, c.bytes, cudaMemcpyHostToDevice,
                                      stream));
    }
  }

 private:
  // issue() of the flags transport: with R > 1 first "ready" to the senders into s and from the
  // receivers of s (ready_'s record and waits, without the barrier), then the push kernel, whose
  // last block signals its receivers (pushed_'s record).
  void issue_flagged(int s, HaloPhase phase, cudaStream_t stream) {
    const int p = static_cast<int>(phase);
    if (this->context_.plan.halo_depth > 1) {
      flags_->signal(s, senders_[s][p], PeerFlags::kReady, stream);
      flags_->wait(s, receivers_[s][p], PeerFlags::kReady, stream);
    }
    if (pushes_[s][p].empty()) return;
    const PushLaunch& launch = push_runs_[s][p];
    YEEX_CUDA(cudaSetDevice(this->context_.engines[s]->device()));
    push_kernel<Real><<<launch.grid, kPushBlock, 0, stream>>>(launch.runs);  // its last block signals
    YEEX_CUDA(cudaGetLastError());
  }

  // One transfer: its components' owned planes copied into the receiver's ghost planes, then
  // its psi chunks. Staged, each copy goes through the transfer's buffer at `staged_at`.
  struct Copy {
    const Real* source = nullptr;
    Real* destination = nullptr;
    std::size_t bytes = 0;
    std::size_t staged_at = 0;  // elements into the buffer
  };
  struct Push {
    const HaloTransfer* transfer = nullptr;  // the plan's
    int from_device = -1, to_device = -1;
    std::vector<Copy> copies;
    std::unique_ptr<StagingBuffer<Real>> buffer;  // staged only: pinned host memory for every copy
  };

  Push make_push(const HaloTransfer& t) const {
    Engine<Real>& from = *this->context_.engines[t.from];
    Engine<Real>& to = *this->context_.engines[t.to];
    Push p{&t, from.device(), to.device(), {}, nullptr};
    std::size_t staged = 0;
    const auto add = [&](const Real* source, Real* destination, std::size_t count) {
      p.copies.push_back({source, destination, count * sizeof(Real), staged});
      staged += count;
    };
    const auto count = static_cast<std::size_t>(t.source.count() * from.layout().pitch_z);
    for (Component c : t.components)
      add(from.field_data(c) + this->plane_offset(t.from, t.source.begin),
          to.field_data(c) + this->plane_offset(t.to, t.destination.begin), count);
    const auto& out_of = this->psi_chunks(t, t.from);
    const auto& into = this->psi_chunks(t, t.to);
    for (std::size_t i = 0; i < into.size(); ++i)
      add(out_of[i].data, into[i].data, static_cast<std::size_t>(into[i].count));
    if (staged_) p.buffer = std::make_unique<StagingBuffer<Real>>(staged);
    return p;
  }

  // peer_kernel: one launch per sender and phase, over the copies of all its pushes.
  struct PushLaunch {
    PushRuns<Real> runs;
    dim3 grid;
  };

  void set_up_push_runs() {
    push_runs_.resize(pushes_.size());
    for (std::size_t s = 0; s < pushes_.size(); ++s)
      for (int phase = 0; phase < kHaloPhaseCount; ++phase) {
        PushLaunch& launch = push_runs_[s][phase];
        for (const Push& p : pushes_[s][phase])
          for (const Copy& c : p.copies) {
            PushRuns<Real>& runs = launch.runs;
            if (runs.count == PushRuns<Real>::kMaxRuns)
              throw std::invalid_argument(name_ + ": more than " + std::to_string(PushRuns<Real>::kMaxRuns) +
                                          " halo runs in one phase for the push kernel");
            const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
            runs.from[runs.count] = c.source;
            runs.to[runs.count] = c.destination;
            runs.elements[runs.count] = static_cast<Index>(c.bytes / sizeof(Real));
            runs.wide[runs.count] = aligned(c.source) && aligned(c.destination) && c.bytes % 16 == 0;
            ++runs.count;
          }
        launch.grid = dim3(kPushBlocksPerRun, static_cast<unsigned>(std::max(launch.runs.count, 1)));
      }
  }

  cudaStream_t border(int s) const {
    return static_cast<cudaStream_t>(this->context_.engines[s]->native_stream(Lane::border));
  }
  cudaStream_t bulk(int s) const {
    return static_cast<cudaStream_t>(this->context_.engines[s]->native_stream(Lane::bulk));
  }

  // Pushing sweeps (border_first_exchange.hpp) where the flags transport can take them: halo depth
  // 1, no CPML, planes of at most pushing_plane_limit nodes (ExchangeOptions::pushing_sweeps
  // always: any), each pushed plane the boundary plane of the sweep that computes it, sent to the
  // neighbour whose planes that sweep reads, and no source on a pushed node (the sources go in
  // after the sweep has pushed). Else the border split (pushing_sweeps never: always), and
  // choices() says why.
  // plane_pushes_[s]: [0] H's push of s (up), [1] E's (down); no components: no push.
  void set_up_pushing_sweeps() {
    const auto& plan = this->context_.plan;
    const SlabDecomposition& d = *this->context_.decomposition;
    const auto& engines = this->context_.engines;
    const auto refuse = [&](std::string why) {
      no_pushing_ = std::move(why);
      plane_pushes_.clear();
    };
    const char* not_boundary = "a halo plan whose pushed planes are not their sweeps' boundary planes";
    using PushingSweeps = ExchangeOptions::PushingSweeps;
    const PushingSweeps asked = this->context_.options.pushing_sweeps;
    if (asked == PushingSweeps::never) return refuse("pushing sweeps turned off");
    if (plan.halo_depth != 1) return refuse("halo depth " + std::to_string(plan.halo_depth) + ": pushing sweeps need 1");
    const GridShape& grid = d.grid();
    if (const Index plane = grid.nx * grid.ny, limit = pushing_plane_limit(engines);
        plane > limit && asked != PushingSweeps::always)
      return refuse("planes of " + std::to_string(plane) + " nodes: pushing sweeps pay off up to " +
                    std::to_string(limit));
    for (Engine<Real>* e : engines)
      if (e->cpml().faces > 0) return refuse("CPML: pushing sweeps need a run without");
    // A pushing sweep's waiting blocks may fill their GPU, so what they wait for must run on another:
    // graph runs one slab a GPU (the registry refuses more), which this relies on.
    plane_pushes_.assign(engines.size(), {});
    for (HaloPhase phase : {HaloPhase::BeforeE, HaloPhase::BeforeH})
      for (const HaloTransfer& t : plan.transfers(phase)) {
        const bool h = phase == HaloPhase::BeforeE;  // H planes go before E
        const HaloPhase read = h ? HaloPhase::BeforeH : HaloPhase::BeforeE;
        const SweepRanges ranges = update_ranges(d, t.from, 1, 0);
        const NodeRange sweep = d.to_local(t.from, h ? ranges.h : ranges.e);
        const Index plane = d.local_k(t.from, t.source.begin);
        SweepPush<Real>& push = plane_pushes_[t.from][h ? 0 : 1];
        if (t.source.count() != 1 || plane != (h ? sweep.k1 - 1 : sweep.k0) || push.components > 0 ||
            t.components.size() > SweepPush<Real>::kMaxComponents ||
            senders_[t.from][static_cast<int>(read)] != std::vector<int>{t.to})
          return refuse(not_boundary);
        if (this->sends_a_source(t, host_sources(cuda_engine_view(*engines[t.from]))))
          return refuse("a source on a pushed node of subdomain " + std::to_string(t.from) +
                        ": pushing sweeps push before the sources");
        push.top = h;
        for (Component c : t.components) {
          push.component[push.components] = c;
          push.to[push.components++] = engines[t.to]->field_data(c);
        }
        push.shift = this->plane_offset(t.to, t.destination.begin) - this->plane_offset(t.from, t.source.begin);
        push.signal = flags_->targets(t.from, {t.to}, static_cast<int>(phase));
        push.wait = flags_->wait_for(t.from, {t.to}, static_cast<int>(read));
      }
    for (std::size_t s = 0; s < engines.size(); ++s)  // a sweep that reads received planes waits in its pushing blocks
      for (const auto& [read, push] : {std::pair{HaloPhase::BeforeH, 0}, std::pair{HaloPhase::BeforeE, 1}})
        if (!senders_[s][static_cast<int>(read)].empty() && plane_pushes_[s][push].components == 0)
          return refuse(not_boundary);
    primed_.assign(engines.size(), 0);
    pushing_ = true;
  }

  std::string name_;
  std::string transport_choice_;  // make_overlap_exchange's
  bool staged_;  // OverlapTransport::staged
  bool kernel_;  // OverlapTransport::peer_kernel or peer_flags: the push kernel
  std::vector<std::array<PushLaunch, kHaloPhaseCount>> push_runs_;  // [sender][phase], the push kernel's only
  std::vector<std::array<std::vector<Push>, kHaloPhaseCount>> pushes_;  // [sender][phase]
  // [sender][phase]: its pushes landed (staged: in its buffers); none with peer_flags (counters)
  std::vector<std::array<Event, kHaloPhaseCount>> pushed_;
  std::vector<Event> ready_;  // [subdomain], R > 1: its sent planes final and its ghost planes free
  // [subdomain][phase]: the subdomains that push to it, and that it pushes to
  std::vector<std::array<std::vector<int>, kHaloPhaseCount>> senders_, receivers_;
  std::unique_ptr<PeerFlags> flags_;  // peer_flags only
  // Pushing sweeps (set_up_pushing_sweeps): taken, or why not; the pushes by subdomain; whether a
  // subdomain has pushed its first E planes (start()).
  bool pushing_ = false;
  std::string no_pushing_;
  std::vector<std::array<SweepPush<Real>, 2>> plane_pushes_;
  std::vector<char> primed_;  // not vector<bool>: each subdomain's thread sets its own
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name,
                                                          OverlapTransport transport, std::string transport_choice) {
  return std::make_unique<OverlapExchange<Real>>(std::move(context), std::move(name), transport,
                                                 std::move(transport_choice));
}
template std::unique_ptr<HaloExchange<float>> make_overlap_exchange(ExchangeContext<float>, std::string,
                                                                    OverlapTransport, std::string);
template std::unique_ptr<HaloExchange<double>> make_overlap_exchange(ExchangeContext<double>, std::string,
                                                                     OverlapTransport, std::string);

}  // namespace yeex
