// HaloExchange: how the subdomains of one model advance together. One class per backend, one
// file each, registered by name in src/exchange/registry.cpp. Contract: advance() is called by
// every subdomain's thread at once with the same steps; when all return, every subdomain holds
// bit for bit what the single-domain run holds on its owned planes, for any backend. A backend
// executes the halo plan (decomposition/halo_plan.hpp) with its own mechanism and computes no
// geometry; it allocates in its constructor, never in advance().
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "decomposition/halo_plan.hpp"
#include "decomposition/slab_decomposition.hpp"
#include "kernels/engine.hpp"
#include "src/runtime/process_group.hpp"
#include "src/runtime/thread_team.hpp"
#include "src/runtime/trace.hpp"
#if YEEX_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>
#endif

namespace yeex {

// What a run may fix about the backends instead of letting them choose, and the test seams that
// force paths the defaults take elsewhere (on other shapes or GPUs), so that one machine's tests
// cover them (tests/gpu).
struct ExchangeOptions {
  // coop's kernel form (--coop-form): automatic times both in the run's first launches
  // (docs/performance.md#coop-kernel-form).
  enum class CoopForm { automatic, inlined, called };
  CoopForm coop_form = CoopForm::automatic;
  // graph's replay block, in steps (--graph-steps; rounded up to whole exchange blocks of R steps);
  // 0: BorderFirstExchange::kReplaySteps.
  Index graph_steps = 0;
  // b2r's transport with peer access (--b2r-transport): automatic takes graph's counters where
  // every GPU holds one slab, else overlap's events and host barriers.
  enum class B2rTransport { automatic, counters, events };
  B2rTransport b2r_transport = B2rTransport::automatic;

  // Test seams.
  // graph's pushing sweeps: automatic where they pay off; always: also above the plane limit;
  // never: the border split.
  enum class PushingSweeps { automatic, always, never };
  PushingSweeps pushing_sweeps = PushingSweeps::automatic;
  // The peer transport's pushes: automatic by halo depth, or by the push kernel or the copy engines.
  enum class PeerPush { automatic, kernel, copy };
  PeerPush peer_push = PeerPush::automatic;
  int coop_band = -1;              // coop's band in planes (0: none); -1: coop_plan.hpp's choice
  bool coop_sweep_sources = true;  // false: coop adds the sources in rounds after the E sweep
  Index coop_trial_steps = 0;      // steps a kernel-form trial; 0: FormTrials::steps_for
  bool coop_pairs = true;          // false: one node a thread in coop's float sweeps
  int coop_pair_block = 0;         // threads a block of node pairs, 512 or 1024; 0: coop's choice
};

// What every backend works on: the split, its plan, the engines of this process's subdomains,
// the team. Threads mode: this process holds every subdomain. MPI mode (processes set): rank r
// holds subdomain r alone; the other entries of `engines` are null.
template <typename Real>
struct ExchangeContext {
  const SlabDecomposition* decomposition = nullptr;
  HaloPlan plan;
  std::vector<Engine<Real>*> engines;  // engines[s] holds subdomain s; null where another process holds it
  std::vector<int> local;              // the subdomains of this process; team member m runs local[m]
  ThreadTeam* team = nullptr;
  const ProcessGroup* processes = nullptr;  // MPI mode: the ranks; null in threads mode
  bool peer_access = true;                  // false (--no-peer): never enable peer access; copies go through the host
  ExchangeOptions options;
  Trace* trace = nullptr;  // yeex run --trace: the window of steps whose phases the backend notes (TraceSpan)
};

// Time of one subdomain's step split by what it waited for (seconds, host clock).
struct ExchangeTimes {
  double exchange = 0;  // copying halos (including waiting for the copies)
  double wait = 0;      // waiting for the other subdomains at barriers
};

template <typename Real>
class HaloExchange {
 public:
  explicit HaloExchange(ExchangeContext<Real> context) : context_(std::move(context)) {
    // The psi chunks of every transfer, on each side this process holds, worked out once here so
    // that advance() never allocates (see state_chunks).
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : context_.plan.transfers(phase))
        psi_[static_cast<int>(phase)].push_back({chunks_of(t, t.from), chunks_of(t, t.to)});
  }
  virtual ~HaloExchange() = default;

  virtual std::string name() const = 0;
  // What the backend chose while it ran, for the run's report ("" for nothing): coop, its
  // kernel's form (timed in each run).
  virtual std::string choices() const { return ""; }
  // Steps subdomain s still takes before it runs as it will for the rest of the run (coop: its
  // kernel-form trials); yeex bench adds them to the warm-up, so that no timed step is a trial.
  virtual Index settling_steps(int s) const {
    (void)s;
    return 0;
  }
  // Advances subdomain s by steps [first, first + count), sampling the probes of step n into
  // slot n - first. Called concurrently by the thread of every subdomain of this process (and,
  // in MPI mode, by every rank).
  virtual void advance(int s, Index first, Index count) = 0;

  const ExchangeContext<Real>& context() const { return context_; }
  // Adds the phases subdomain s noted since the last call to context().trace, once their times
  // are known (Engine::trace_times waits for them). The solver calls it after each advance() that
  // meets the trace window, from s's thread, outside the steps it times: what the printed
  // overhead counts is the marks alone. A backend that runs another (b2r) forwards it.
  virtual void resolve_trace(int s) {
    std::vector<PendingPhase>& pending = pending_[s];
    if (!context_.trace || pending.empty()) return;
    const std::vector<double> times = context_.engines[s]->trace_times();
    std::vector<TracePhase> phases;
    phases.reserve(pending.size());
    for (const PendingPhase& p : pending) {
      phases.push_back(p.phase);
      if (p.begin_mark >= 0) {
        phases.back().begin_us = times.at(static_cast<std::size_t>(p.begin_mark));
        phases.back().end_us = times.at(static_cast<std::size_t>(p.end_mark));
      }
    }
    pending.clear();
    context_.trace->add(phases);
  }
  // Accumulated per subdomain since construction (backends that can tell them apart).
  virtual const std::vector<ExchangeTimes>& times() const { return times_; }

  // The CPML psi values (kernels/cpml.hpp), and with E the pole state of dispersive nodes
  // (kernels/dispersion.hpp, the same reasoning), that travel with transfer t in subdomain s's engine:
  // those of its source planes when s sends, of its destination planes when it receives. With
  // R > 1 the ghost planes are computed, and a psi there is a running sum that only the owner
  // of the plane has, so BeforeBlock moves the psi of E planes with E and of H planes with H.
  // R = 1 ghost planes are read, never computed: no psi travels. The sender's list and the
  // receiver's list match entry by entry; empty without CPML (and for a side another process holds).
  // t must be one of the plan's transfers (context_.plan.transfers(t.phase)). Public, with
  // plane_offset, so that the transports (copy_transports.hpp) build their copies from them.
  const std::vector<StateChunk<Real>>& state_chunks(const HaloTransfer& t, int s) const {
    const auto& list = context_.plan.transfers(t.phase);
    for (std::size_t i = 0; i < list.size(); ++i)
      if (&list[i] == &t) return psi_[static_cast<int>(t.phase)][i][s == t.from ? 0 : 1];
    throw std::logic_error("state_chunks: the transfer is not one of the halo plan's");
  }
  // Local array offset of the first element of global plane k in subdomain s (whole padded
  // planes: a run of planes is contiguous).
  Index plane_offset(int s, Index k) const {
    return context_.engines[s]->layout().plane_offset(context_.decomposition->local_k(s, k));
  }

 protected:
  // A phase of step n of subdomain s, from the span's construction to its end (yeex run --trace):
  // where n is in the trace window, a time point on `lane` of s's engine at each end
  // (Engine::trace_mark), resolved later (resolve_trace); elsewhere a null check. `name` is a
  // literal whose first word is the phase's kind (H, E, transfer, await, sources, probes, kernel:
  // Trace's colour classes). CUDA builds also push an NVTX range named so around the issue, on the
  // host thread, whatever the window (NVTX costs nothing without a profiler attached).
  class TraceSpan {
   public:
    TraceSpan(HaloExchange& x, int s, Index n, Lane lane, const char* name, Index steps = 1)
        : x_(x.context_.trace && x.context_.trace->meets(n, steps) ? &x : nullptr), s_(s), lane_(lane) {
#if YEEX_HAVE_CUDA
      nvtxRangePushA(name);
#endif
      if (!x_) return;
      Engine<Real>& engine = *x.context_.engines[s];
      phase_ = {engine.device(), s, lane == Lane::border ? TraceLane::border : TraceLane::bulk, name, n, 0, 0, steps};
      begin_ = engine.trace_mark(lane);
    }
    ~TraceSpan() {
#if YEEX_HAVE_CUDA
      nvtxRangePop();
#endif
      if (!x_) return;
      try {  // unwinding from a failed step: the phase is dropped, the failure stands
        const int end = x_->context_.engines[s_]->trace_mark(lane_);
        x_->pending_[s_].push_back({phase_, begin_, end});
      } catch (...) {}
    }
    TraceSpan(const TraceSpan&) = delete;
    TraceSpan& operator=(const TraceSpan&) = delete;

   private:
    HaloExchange* x_;
    int s_;
    Lane lane_;
    TracePhase phase_;
    int begin_ = -1;
  };
  // The same on the host thread that drives subdomain s, timed by the host's clock: barriers,
  // waits for the engine, the host's share of issuing a transfer.
  class HostSpan {
   public:
    HostSpan(HaloExchange& x, int s, Index n, const char* name)
        : x_(x.context_.trace && x.context_.trace->covers(n) ? &x : nullptr) {
#if YEEX_HAVE_CUDA
      nvtxRangePushA(name);
#endif
      if (!x_) return;
      phase_ = {x.context_.engines[s]->device(), s, TraceLane::host_thread, name, n, host_microseconds(), 0, 1};
    }
    ~HostSpan() {
#if YEEX_HAVE_CUDA
      nvtxRangePop();
#endif
      if (!x_) return;
      phase_.end_us = host_microseconds();
      try {
        x_->pending_[phase_.slab].push_back({phase_, -1, -1});
      } catch (...) {}
    }
    HostSpan(const HostSpan&) = delete;
    HostSpan& operator=(const HostSpan&) = delete;

   private:
    HaloExchange* x_;
    TracePhase phase_;
  };

  // The halo plan's step loop for subdomain s (see decomposition/halo_plan.hpp), for backends
  // that move planes between the sweeps; exchange(phase, n) moves that phase's planes in step n
  // (and returns at once for a phase without transfers of its own).
  template <typename ExchangePhase>
  void plan_steps(int s, Index first, Index count, ExchangePhase exchange) {
    const SlabDecomposition& d = *context_.decomposition;
    Engine<Real>& engine = *context_.engines[s];
    const Index R = context_.plan.halo_depth;
    for (Index n = first; n < first + count; ++n) {
      // ---- one Yee step of subdomain s ----
      if (exchange_due(R, n)) exchange(HaloPhase::BeforeBlock, n);
      const SweepRanges ranges = update_ranges(d, s, R, n % R);
      engine.fold_sources(n);  // opens the step (Engine::fold_sources)
      exchange(HaloPhase::BeforeH, n);
      {
        const TraceSpan span(*this, s, n, Lane::bulk, "H");
        engine.update_h(d.to_local(s, ranges.h));
      }
      exchange(HaloPhase::BeforeE, n);
      {
        const TraceSpan span(*this, s, n, Lane::bulk, "E");
        engine.update_e(d.to_local(s, ranges.e));
      }
      {
        const TraceSpan span(*this, s, n, Lane::bulk, "sources");
        engine.inject_sources(n);
      }
      const TraceSpan span(*this, s, n, Lane::bulk, "probes");
      engine.sample_probes(n - first);
    }
  }

  static Index state_elements(const std::vector<StateChunk<Real>>& chunks) {
    Index n = 0;
    for (const StateChunk<Real>& chunk : chunks) n += chunk.count;
    return n;
  }
  // Copies the chunks' values from engine memory into host memory one after another, starting at
  // `out` (pack), or back (unpack); returns the end of the packed run.
  static Real* pack_state(Engine<Real>& engine, const std::vector<StateChunk<Real>>& chunks, Real* out) {
    for (const StateChunk<Real>& chunk : chunks) {
      engine.read_memory(chunk.data, chunk.count, out);
      out += chunk.count;
    }
    return out;
  }
  static const Real* unpack_state(Engine<Real>& engine, const std::vector<StateChunk<Real>>& chunks, const Real* in) {
    for (const StateChunk<Real>& chunk : chunks) {
      engine.write_memory(chunk.data, chunk.count, in);
      in += chunk.count;
    }
    return in;
  }

  // Whether one of `sources` (subdomain t.from's) adds to a node that transfer t sends: on one of
  // its source planes, in one of its components. Backends that send a plane before the step's
  // sources are added check it (graph's pushing sweeps, coop's early pushes).
  bool sends_a_source(const HaloTransfer& t, const std::vector<PointSource>& sources) const {
    const Index first = plane_offset(t.from, t.source.begin), end = plane_offset(t.from, t.source.end);
    return std::any_of(sources.begin(), sources.end(), [&](const PointSource& source) {
      return source.offset >= first && source.offset < end &&
             std::find(t.components.begin(), t.components.end(), source.component) != t.components.end();
    });
  }

  ExchangeContext<Real> context_;
  std::vector<ExchangeTimes> times_ = std::vector<ExchangeTimes>(context_.engines.size());

 private:
  // A traced phase whose times come from its engine's marks (begin_mark >= 0) or are known.
  struct PendingPhase {
    TracePhase phase;
    int begin_mark = -1, end_mark = -1;
  };
  static double host_microseconds() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  std::vector<std::vector<PendingPhase>> pending_ =
      std::vector<std::vector<PendingPhase>>(context_.engines.size());  // [subdomain]: noted, not yet resolved

  std::vector<StateChunk<Real>> chunks_of(const HaloTransfer& t, int s) const {
    if (t.phase != HaloPhase::BeforeBlock || t.components.empty() || !context_.engines[s]) return {};
    const SlabDecomposition& d = *context_.decomposition;
    const PlaneRange planes = s == t.from ? t.source : t.destination;
    const Index k_begin = d.local_k(s, planes.begin), k_end = d.local_k(s, planes.end);
    const bool electric = is_electric(t.components.front());
    std::vector<StateChunk<Real>> chunks = cpml_plane_chunks(context_.engines[s]->cpml(), electric, k_begin, k_end);
    if (electric)  // the pole state advances in the E update: it travels with E
      for (const StateChunk<Real>& chunk : context_.engines[s]->dispersion_chunks(k_begin, k_end))
        chunks.push_back(chunk);
    return chunks;
  }

  // [phase][transfer index in the plan][0: the sender's side, 1: the receiver's]
  std::array<std::vector<std::array<std::vector<StateChunk<Real>>, 2>>, kHaloPhaseCount> psi_;
};

// The synchronous step loop of the halo plan (see decomposition/halo_plan.hpp): exchange phases
// between the sweeps, each a barrier (where the backend needs it), the backend's transfers, a
// barrier. Subclasses supply only transfer(): how one subdomain receives its planes of one phase.
template <typename Real>
class SynchronousExchange : public HaloExchange<Real> {
 public:
  using HaloExchange<Real>::HaloExchange;
  void advance(int s, Index first, Index count) override;

 protected:
  // Moves every transfer of `phase` that subdomain s takes part in (as receiver or sender,
  // as the backend prefers); on return the transfers s receives have landed. Between the
  // barrier before it (see transfers_touch_neighbours) and the one after it, no subdomain sweeps.
  virtual void transfer(int s, HaloPhase phase) = 0;
  // Whether transfer() reads or writes another subdomain's planes (p2p pulls straight from the
  // sender's owned planes into the receiver's ghost planes): then no transfer may start before
  // every subdomain has finished its sweep, which is the barrier before transfer(). A backend
  // whose subdomains meet only in buffers of their own, behind a barrier of their own, returns
  // false and saves that barrier.
  virtual bool transfers_touch_neighbours() const { return true; }
  // The team's barrier, its time counted as subdomain s's wait (not as exchange time, also when
  // transfer() calls it).
  void meet(int s);
  void exchange(int s, HaloPhase phase, Index n);

 private:
  using typename HaloExchange<Real>::HostSpan;
  using typename HaloExchange<Real>::TraceSpan;
  std::vector<Index> step_ = std::vector<Index>(this->context_.engines.size());  // [subdomain]: the step exchanging
};

}  // namespace yeex
