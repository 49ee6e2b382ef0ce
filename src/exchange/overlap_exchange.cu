// overlap: every GPU first computes the planes its neighbours need, on its high-priority border
// stream, and pushes them straight into the neighbours' ghost planes (cudaMemcpyPeerAsync on the
// same stream) while its low-priority bulk stream sweeps the rest of the slab. GPUs are ordered
// by CUDA events (timing disabled); no host thread waits for a GPU inside the step loop. Halo
// depth 1 only.
//
// Data path. Subdomain s owns planes [b, e); L is its lower and U its upper neighbour. The halo
// plan's BeforeH transfer becomes "s pushes Ex, Ey of plane b into L's ghost plane b" and its
// BeforeE transfer "s pushes Hx, Hy of plane e-1 into U's ghost plane e-1"; each is issued by the
// sender right after it has computed the plane. Step n of subdomain s:
//
//   border stream (high priority)                 bulk stream (low priority)
//   wait U.e_pushed       (E^n of plane e landed)  H over [b, e-1)
//   H over plane e-1                               record bulk_h_done
//   record border_h_done
//   push Hx, Hy of e-1 -> U; record h_pushed
//   ----------- host barrier A: every h_pushed of step n is recorded -----------
//   wait bulk_h_done, L.h_pushed                   wait border_h_done
//   E over plane b                                 E over [b+1, e)
//   record border_e_done                           wait border_e_done
//                                                  inject sources (n), sample probes (n - first)
//                                                  record bulk_done
//   wait bulk_done
//   push Ex, Ey of b -> L; record e_pushed         (this is U.e_pushed of L's step n+1)
//   ----------- host barrier B: every e_pushed of step n is recorded -----------
//
// A neighbour that does not exist means no wait and no push; a one-plane slab has empty bulk
// sweeps (its border stream does everything, the events still order it). Sources can lie on
// plane b, whose E goes to L, so the E push waits for bulk_done; it costs little: the push lands
// while L's bulk stream sweeps H of step n+1, which needs nothing from s.
//
// Synchronisation contract (why the result is bit for bit the single-domain one: same sweeps,
// same sources, every read sees the plane version the single-domain run would read):
//   ghost reads: H(e-1) reads the E ghost e -> waits U.e_pushed; E(b) reads the H ghost b-1 ->
//     waits L.h_pushed.
//   local reads (RAW): H(e-1) and bulk H read E of step n-1 with its sources -> border waited
//     bulk_done(n-1), bulk waited border_e_done(n-1); bulk E(e-1) reads H(e-1) -> border_h_done;
//     border E(b) reads H(b) -> bulk_h_done; sources and probes follow every sweep of the step.
//   local overwrites (WAR): each plane is written by one stream per half step, and the other
//     stream's readers of its old value are ordered by the same events (border E(b) after bulk
//     H(b): bulk_h_done; bulk E(e-1) after border H(e-1): border_h_done; border H(e-1) of n+1
//     after bulk E(e-1) of n: bulk_done; bulk H(b) of n+1 after border E(b) of n: border_e_done).
//   remote overwrites (WAR): my H push into U's ghost overwrites what U's E(b_U) of step n-1
//     read; U recorded e_pushed after that sweep on its border stream, and my H sweep, hence my
//     push, waited for it. My E push into L's ghost overwrites what L's H(e_L-1) of step n read;
//     L recorded h_pushed after it, and my E sweep, hence my push, waited for it.
// Host-side ordering: cudaStreamWaitEvent waits for the record enqueued at the time of the call,
// so a wait on a peer's event must come after the peer's record for this step and before its
// next one. The barriers give exactly that: U.e_pushed is recorded before barrier B of step n-1,
// waited before barrier A of step n, recorded again after A; L.h_pushed is recorded before A of
// step n, waited between A and B, recorded again after B. Own events are recorded and waited by
// the same thread in program order. As every wait refers to work already enqueued, the GPUs
// never depend on host work not yet issued: the host may run ahead freely, no deadlock.
// Each advance() starts with a prologue (synchronise, barrier, push E of plane b, barrier), so a
// call depends on no state left by an earlier one: one host synchronisation per call, none per
// step.
// Requirements: cuda engine; peer access between neighbouring GPUs (enabled at construction);
// --halo-depth 1. times() stay zero: the copies overlap the sweeps on the GPUs, where host clocks
// cannot separate them.
#include "src/exchange/overlap_exchange.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/cuda_handles.hpp"

namespace yeex {
namespace {

template <typename Real>
class OverlapExchange final : public HaloExchange<Real> {
 public:
  OverlapExchange(ExchangeContext<Real> context, std::string name)
      : HaloExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto& d = *this->context_.decomposition;
    const auto& plan = this->context_.plan;
    const auto& engines = this->context_.engines;
    if (plan.halo_depth != 1) throw std::invalid_argument("the overlap exchange runs with --halo-depth 1 only");
    for (Engine<Real>* e : engines)
      if (e->device() < 0) throw std::invalid_argument("the overlap exchange needs the cuda engine");

    slabs_.resize(engines.size());
    for (int s = 0; s < d.size(); ++s) {
      Slab& slab = slabs_[s];
      const SweepRanges ranges = update_ranges(d, s, 1, 0);
      const NodeRange h = d.to_local(s, ranges.h), e = d.to_local(s, ranges.e);
      slab.h_bulk = slab.h_border = h;
      slab.h_bulk.k1 = slab.h_border.k0 = h.k1 - 1;  // the last plane feeds U
      slab.e_border = slab.e_bulk = e;
      slab.e_border.k1 = slab.e_bulk.k0 = e.k0 + 1;  // the first plane feeds L
      const int device = engines[s]->device();
      for (Event* event : {&slab.bulk_h_done, &slab.border_h_done, &slab.border_e_done, &slab.bulk_done,
                           &slab.h_pushed, &slab.e_pushed})
        *event = make_event(device);
    }

    // The pushes are the plan's transfers; check that each reads the plane the sender computes
    // on its border stream, so that pushing it right behind that sweep is right.
    if (!plan.transfers(HaloPhase::BeforeBlock).empty())
      throw std::logic_error("overlap: a halo plan of depth 1 has no block exchange");
    for (const HaloTransfer& t : plan.transfers(HaloPhase::BeforeH)) {
      const Index border = update_ranges(d, t.from, 1, 0).e.k0;
      if (t.source != PlaneRange{border, border + 1} || slabs_[t.from].e_push.to != kNoNeighbour)
        throw std::logic_error("overlap: the before-h transfer is not the sender's first plane");
      slabs_[t.from].e_push = make_push(t);
      slabs_[t.to].e_from = t.from;
    }
    for (const HaloTransfer& t : plan.transfers(HaloPhase::BeforeE)) {
      const Index border = update_ranges(d, t.from, 1, 0).h.k1 - 1;
      if (t.source != PlaneRange{border, border + 1} || slabs_[t.from].h_push.to != kNoNeighbour)
        throw std::logic_error("overlap: the before-e transfer is not the sender's last plane");
      slabs_[t.from].h_push = make_push(t);
      slabs_[t.to].h_from = t.from;
    }
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : plan.transfers(phase))
        enable_peer_access(engines[t.from]->device(), engines[t.to]->device());
  }

  std::string name() const override { return name_; }

  void advance(int s, Index first, Index count) override {
    if (count <= 0) return;  // the same for every thread: no barrier is skipped by one alone
    Engine<Real>& engine = *this->context_.engines[s];
    ThreadTeam& team = *this->context_.team;
    Slab& me = slabs_[s];
    const auto border = static_cast<cudaStream_t>(engine.native_stream(Lane::border));
    const auto bulk = static_cast<cudaStream_t>(engine.native_stream(Lane::bulk));
    YEEX_CUDA(cudaSetDevice(engine.device()));

    // Prologue: E of step `first` into the upper ghosts, from the owned planes as they are now.
    engine.synchronize();
    team.barrier();  // every GPU idle: nobody still reads a ghost plane, every owned plane is final
    if (me.e_push.to != kNoNeighbour) {
      push(me.e_push, border);
      record(me.e_pushed, border);
    }
    team.barrier();  // every e_pushed recorded before step `first` waits on it

    for (Index n = first; n < first + count; ++n) {
      // ---- H half-step: border plane e-1 (needs U's E plane), its push to U; bulk the rest ----
      if (me.e_from != kNoNeighbour) wait(border, slabs_[me.e_from].e_pushed);
      engine.update_h(me.h_border, Lane::border);
      record(me.border_h_done, border);
      if (me.h_push.to != kNoNeighbour) {
        push(me.h_push, border);
        record(me.h_pushed, border);
      }
      engine.update_h(me.h_bulk, Lane::bulk);
      record(me.bulk_h_done, bulk);
      team.barrier();  // A: every h_pushed of step n recorded (and every wait on e_pushed enqueued)

      // ---- E half-step: border plane b (needs L's H plane); bulk the rest, then sources and
      // probes; then E of plane b, sources included, to L ----
      wait(border, me.bulk_h_done);
      if (me.h_from != kNoNeighbour) wait(border, slabs_[me.h_from].h_pushed);
      engine.update_e(me.e_border, Lane::border);
      record(me.border_e_done, border);
      wait(bulk, me.border_h_done);
      engine.update_e(me.e_bulk, Lane::bulk);
      wait(bulk, me.border_e_done);
      engine.inject_sources(n);
      engine.sample_probes(n - first);
      record(me.bulk_done, bulk);
      wait(border, me.bulk_done);  // also orders the next border H sweep after this step's E
      if (me.e_push.to != kNoNeighbour) {
        push(me.e_push, border);
        record(me.e_pushed, border);
      }
      team.barrier();  // B: every e_pushed for step n+1 recorded (and every wait on h_pushed enqueued)
    }
  }

 private:
  // Some components of one owned plane copied into a neighbour's ghost plane.
  struct Push {
    int to = kNoNeighbour;
    int from_device = -1, to_device = -1;
    std::size_t bytes = 0;                              // per component
    std::vector<std::pair<const Real*, Real*>> copies;  // (owned plane, ghost plane) per component
  };

  struct Slab {
    NodeRange h_bulk, h_border, e_border, e_bulk;  // local nodes
    Push h_push, e_push;                           // H plane e-1 to U, E plane b to L
    int h_from = kNoNeighbour;                     // L: its h_pushed fills my H ghost
    int e_from = kNoNeighbour;                     // U: its e_pushed fills my E ghost
    Event bulk_h_done, border_h_done, border_e_done, bulk_done, h_pushed, e_pushed;
  };

  Push make_push(const HaloTransfer& t) const {
    const auto& d = *this->context_.decomposition;
    Engine<Real>& from = *this->context_.engines[t.from];
    Engine<Real>& to = *this->context_.engines[t.to];
    Push p;
    p.to = t.to;
    p.from_device = from.device();
    p.to_device = to.device();
    p.bytes = static_cast<std::size_t>(t.source.count() * from.layout().pitch_z) * sizeof(Real);
    for (Component c : t.components)
      p.copies.emplace_back(from.field_data(c) + from.layout().plane_offset(d.local_k(t.from, t.source.begin)),
                            to.field_data(c) + to.layout().plane_offset(d.local_k(t.to, t.destination.begin)));
    return p;
  }

  static void push(const Push& p, cudaStream_t stream) {
    for (const auto& [source, destination] : p.copies)
      YEEX_CUDA(cudaMemcpyPeerAsync(destination, p.to_device, source, p.from_device, p.bytes, stream));
  }

  std::string name_;
  std::vector<Slab> slabs_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<OverlapExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_overlap_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_overlap_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
