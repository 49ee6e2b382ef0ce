// graph: overlap's schedule with the push kernel, the GPUs ordered by counters on the GPUs instead
// of events and host barriers, so that each GPU's steps are recorded once and replayed as a CUDA
// graph (border_first_exchange.hpp, Replay): a replayed step costs the host a fraction of an
// issued one.
//
// Step loop: the border-first schedule (border_first_exchange.hpp), written once there; this file
// supplies its transport, CounterTransport (copy_transports.hpp), and graph's pushing sweeps.
// Data path: the push kernel stores every run of a phase into the receivers through peer pointers;
// its last block signals the receivers' counters (peer_flags.hpp) once every block's stores are
// fenced. With pushing sweeps (below) the sweep kernels' first blocks store the border plane
// themselves.
// Synchronisation: await() is a one-thread kernel that waits for the counters; no event, no host
// barrier in a step (copy_transports.cu, COUNTERS, argues why none is needed).
// Pushing sweeps: at R = 1 without CPML, for planes of at most pushing_plane_limit, graph sweeps
// each step that exchanges with pushing sweeps (set_up_pushing_sweeps): the sweep kernels' first
// blocks wait on the same counters, store the border plane into the receiver and signal, so a step
// is two kernels and no push or wait kernel (docs/performance.md#graph-pushing-limit).
// Requirements: cuda engine; peer access between neighbouring GPUs (enabled at construction); one
// GPU per subdomain (the registry refuses more: each slab's waits spin on its GPU); any halo depth.
#include "src/exchange/graph_exchange.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/border_first_exchange.hpp"
#include "src/exchange/copy_transports.hpp"

namespace yeex {
namespace {

template <typename Real>
class GraphExchange final : public BorderFirstExchange<Real> {
 public:
  GraphExchange(ExchangeContext<Real> context, std::string name, std::string transport_choice)
      : BorderFirstExchange<Real>(std::move(context)),
        name_(std::move(name)),
        transport_choice_(std::move(transport_choice)),
        transport_(*this, name_) {
    set_up_pushing_sweeps();
  }

  std::string name() const override { return name_; }
  std::string choices() const override {
    if (!transport_choice_.empty()) return transport_choice_;
    if (!this->exchanges_any()) return "";
    return pushing_ ? "pushing sweeps (each sweep one kernel whose first blocks push its border plane)"
                    : "border split (" + no_pushing_ + ")";
  }

 protected:
  void start(int s) override {
    transport_.start(s);
    if (pushing_ && !primed_[s]) {
      // The first H sweep's wait: the E planes of the start, which no E sweep has pushed.
      transport_.issue(s, HaloPhase::BeforeH, bulk_stream(this->context_, s));
      primed_[s] = true;
    }
  }
  void issue(int s, HaloPhase phase) override { transport_.issue(s, phase, border_stream(this->context_, s)); }
  void await(int s, HaloPhase phase) override { transport_.await(s, phase, border_stream(this->context_, s)); }
  bool replayable() const override { return true; }
  void finish(int s) override { transport_.finish(s); }

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

 private:
  void set_up_pushing_sweeps();
  // Whether one of `nodes` (subdomain t.from's TF/SF nodes) lies on a plane transfer t sends, in
  // one of its components.
  bool sends_a_tfsf_node(const HaloTransfer& t, const std::vector<TfsfNode>& nodes) const {
    const Index first = this->plane_offset(t.from, t.source.begin), end = this->plane_offset(t.from, t.source.end);
    return std::any_of(nodes.begin(), nodes.end(), [&](const TfsfNode& node) {
      return node.offset >= first && node.offset < end &&
             std::find(t.components.begin(), t.components.end(), static_cast<Component>(node.component)) !=
                 t.components.end();
    });
  }

  std::string name_;
  std::string transport_choice_;  // b2r's: why this transport
  CounterTransport<Real> transport_;
  // Pushing sweeps (set_up_pushing_sweeps): taken, or why not; the pushes by subdomain; whether a
  // subdomain has pushed its first E planes (start()).
  bool pushing_ = false;
  std::string no_pushing_;
  std::vector<std::array<SweepPush<Real>, 2>> plane_pushes_;
  std::vector<char> primed_;  // not vector<bool>: each subdomain's thread sets its own
};

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

// Pushing sweeps (border_first_exchange.hpp) where the counter transport can take them: halo depth
// 1, no CPML, planes of at most pushing_plane_limit nodes (ExchangeOptions::pushing_sweeps
// always: any), each pushed plane the boundary plane of the sweep that computes it, sent to the
// neighbour whose planes that sweep reads, and no source or TF/SF node on a pushed plane (the
// sources and TF/SF corrections go in after the sweep has pushed). Else the border split (pushing_sweeps never: always), and
// choices() says why.
// plane_pushes_[s]: [0] H's push of s (up), [1] E's (down); no components: no push.
template <typename Real>
void GraphExchange<Real>::set_up_pushing_sweeps() {
  const auto& plan = this->context_.plan;
  const SlabDecomposition& d = *this->context_.decomposition;
  const auto& engines = this->context_.engines;
  const HaloPushes<Real>& pushes = transport_.pushes();
  const PeerFlags& flags = transport_.flags();
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
  for (Engine<Real>* e : engines) {
    if (e->cpml().faces > 0) return refuse("CPML: pushing sweeps need a run without");
    if (e->has_dispersion())
      return refuse("dispersive materials: pushing sweeps push E planes before the dispersion pass");
  }
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
          pushes.senders(t.from, static_cast<int>(read)) != std::vector<int>{t.to})
        return refuse(not_boundary);
      if (this->sends_a_source(t, host_sources(cuda_engine_view(*engines[t.from]))))
        return refuse("a source on a pushed node of subdomain " + std::to_string(t.from) +
                      ": pushing sweeps push before the sources");
      if (sends_a_tfsf_node(t, cuda_tfsf_nodes(*engines[t.from])))
        return refuse("a plane wave's TF/SF node on a pushed plane of subdomain " + std::to_string(t.from) +
                      ": pushing sweeps push before its corrections");
      push.top = h;
      for (Component c : t.components) {
        push.component[push.components] = c;
        push.to[push.components++] = engines[t.to]->field_data(c);
      }
      push.shift = this->plane_offset(t.to, t.destination.begin) - this->plane_offset(t.from, t.source.begin);
      push.signal = flags.targets(t.from, {t.to}, static_cast<int>(phase));
      push.wait = flags.wait_for(t.from, {t.to}, static_cast<int>(read));
    }
  for (std::size_t s = 0; s < engines.size(); ++s)  // a sweep that reads received planes waits in its pushing blocks
    for (const auto& [read, push] : {std::pair{HaloPhase::BeforeH, 0}, std::pair{HaloPhase::BeforeE, 1}})
      if (!pushes.senders(static_cast<int>(s), static_cast<int>(read)).empty() &&
          plane_pushes_[s][push].components == 0)
        return refuse(not_boundary);
  primed_.assign(engines.size(), 0);
  pushing_ = true;
}

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_graph_exchange(ExchangeContext<Real> context, std::string name) {
  return make_graph_exchange<Real>(std::move(context), std::move(name), "");
}
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_graph_exchange(ExchangeContext<Real> context, std::string name,
                                                        std::string transport_choice) {
  return std::make_unique<GraphExchange<Real>>(std::move(context), std::move(name), std::move(transport_choice));
}
template std::unique_ptr<HaloExchange<float>> make_graph_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_graph_exchange(ExchangeContext<double>, std::string);
template std::unique_ptr<HaloExchange<float>> make_graph_exchange(ExchangeContext<float>, std::string, std::string);
template std::unique_ptr<HaloExchange<double>> make_graph_exchange(ExchangeContext<double>, std::string, std::string);

}  // namespace yeex
