// coop: one persistent cooperative kernel per GPU (cudaLaunchCooperativeKernel on the engine's bulk
// stream) runs a whole chunk of steps, halos included, and returns to the host, which then
// fetches probes and snapshots. The one place where exchange and compute meet: the kernel calls
// the cell functions of kernels/yee_stencil.hpp and injects sources and samples probes with the
// arithmetic of the cuda engine, so its fields are bit for bit those of every other backend.
// Step loop: on the host, advance() at the top of CoopExchange below (one launch a chunk of steps,
// or the kernel-form trials); on the GPU, the kernel's loop over the steps (coop_kernel in
// coop_kernel.cuh, with the sweeps and counters it calls).
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
// GPUs (enabled at construction); no plane wave (the kernel has no TF/SF pass: graph runs those).
// Subdomains sharing a GPU (--subdomains N over fewer GPUs): their grids split the GPU's
// co-resident blocks, so that all of them fit at once; each spins on the others' flags, so they
// must run concurrently. CUDA promises co-residency within one cooperative grid only: that
// kernels of different streams run side by side when they fit is what the hardware does, not a
// guarantee, and if it ever did not, the bounded waits turn it into an error, never a hang.
// Times: the kernel is one unit, exchange and compute interleaved inside it; times() stays zero.
// Two forms of the kernel, with the source code inlined or called: each subdomain's first few
// launches time both and keep the faster (FormTrials); the bits do not depend on the form.
#include "src/exchange/coop_exchange.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <numeric>
#include <string>
#include <stdexcept>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/coop_kernel.cuh"
#include "src/exchange/coop_plan.hpp"
#include "src/exchange/form_trials.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/clock.hpp"

namespace yeex {
namespace {

template <typename Real>
class CoopExchange final : public HaloExchange<Real> {
 public:
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

  CoopExchange(ExchangeContext<Real> context, std::string name)
      : HaloExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto& ctx = this->context_;
    if (ctx.plan.halo_depth != 1 || !ctx.plan.transfers(HaloPhase::BeforeBlock).empty())
      throw std::invalid_argument("coop: runs with --halo-depth 1 only");
    std::vector<int> devices;
    for (Engine<Real>* e : ctx.engines) {
      cuda_engine_view(*e);  // throws unless it is the cuda engine
      // The persistent kernel sweeps with the cell functions alone, without the TF/SF pass.
      if (!cuda_tfsf_nodes(*e).empty())
        throw std::invalid_argument(
            "coop: a plane wave ([[plane_wave]]) needs TF/SF corrections, which coop's persistent kernel does not "
            "apply; use --exchange graph (or any other backend)");
      devices.push_back(e->device());
      if (e->has_dispersion()) throw std::invalid_argument(kCoopNoDispersion);  // run_plan.cpp refuses first
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
    std::string text = "kernel form sources " + sub_.front().trials.describe("inlined", "called", "--coop-form");
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
      {
        // Traced (yeex run --trace): the launch is one phase, all its steps; its sweeps, planes and
        // waits happen inside the kernel, where no host-side mark reaches.
        const typename HaloExchange<Real>::TraceSpan span(*this, s, first, Lane::bulk, "kernel", count);
        // me.grid fits either form of the kernel (blocks_per_sm).
        YEEX_CUDA(cudaLaunchCooperativeKernel(me.kernels[calls_sources], dim3(me.grid),
                                              dim3(block_size<Real>(params.cpml.faces > 0, me.pair_block)), args,
                                              me.shared_bytes, stream));
      }
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
    int pair_block = 0;           // node pairs in the sweeps in blocks of this many threads, or 0 (pair_block_for)
    const void* kernels[2] = {};  // coop_kernel's instantiations: [0] inlines inject_sources, [1] calls it
    FormTrials trials{2, std::nullopt};  // which of them runs (set_up)
    void* stream = nullptr;
    CoopSignals* signals = nullptr;                            // device memory of `device`
    CoopSignals* status = nullptr;                             // pinned host copy, read after each launch
    int upper = kNoNeighbour, lower = kNoNeighbour;            // the subdomains that send to this one
    int e_receiver = kNoNeighbour, h_receiver = kNoNeighbour;  // the ones this one sends to
    Index next_step = -1;                                      // the step the previous call stopped before
    std::size_t shared_bytes = 0;                              // of each block: the coefficient table (shared_classes)
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
    if (!pairs_fit(L, ctx.decomposition->to_local(s, ranges.h)) ||
        !pairs_fit(L, ctx.decomposition->to_local(s, ranges.e)))
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
    Index largest = 0;                                     // nodes of the largest subdomain's H sweep
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
      const std::vector<SweepSourcePlace> places =
          ctx.options.coop_sweep_sources ? sweep_source_places(v.layout, p.e_sweep, threads / kTileX, sources[s])
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
        if (from_layout.pitch_z != to_layout.pitch_z) throw std::logic_error("coop: halo planes differ in size");
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
