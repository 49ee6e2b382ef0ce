// b2r: B+2R. R ghost planes exchanged once every R steps (--halo-depth R > 1), the border
// recomputed in the substeps between; the halo plan (decomposition/halo_plan.hpp) says which
// planes and which cells each substep updates (HaloExchange::plan_steps is the step loop).
// Data path: b2r moves planes with the transport the run can take, chosen once here (the bits
// are the same; the run's exchange_choices says which and why):
//   GPUs with peer access, each holding one slab: graph's (graph_exchange.cu: the push kernel, the
//     GPUs ordered by counters on the GPUs, the steps replayed as CUDA graphs);
//   GPUs with peer access otherwise, or with --b2r-transport events (or pushes by the copy
//     engines): overlap's (overlap_exchange.cu: events and host barriers, every step issued by
//     the host). The counters run far ahead at small grids (docs/performance.md#border-split);
//   without peer access (--no-peer), and on the host engine: host-staged's
//     (host_staged_exchange.cpp: pinned host buffers on GPUs, a staging buffer on the host).
// Synchronisation: the transport's, once every R steps instead of twice a step.
// Requirements: --halo-depth R with R > 1 (registry.cpp); with peer access on GPUs, peer access
// between neighbouring GPUs.
#include "src/exchange/b2r_exchange.hpp"

#include <string>
#include <utility>
#include <vector>

#include "decomposition/slab_decomposition.hpp"
#include "src/exchange/host_staged_exchange.hpp"
#if YEEX_HAVE_CUDA
#include "src/exchange/graph_exchange.hpp"
#include "src/exchange/overlap_exchange.hpp"
#endif

namespace yeex {
namespace {

// The transport for a run's context (see the header of this file), named "b2r" in its messages.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> b2r_transport(ExchangeContext<Real> context) {
#if YEEX_HAVE_CUDA
  if (context.peer_access && context.engines.front()->device() >= 0) {
    using B2rTransport = ExchangeOptions::B2rTransport;
    std::vector<int> devices;
    for (const Engine<Real>* e : context.engines) devices.push_back(e->device());
    const ExchangeOptions& options = context.options;
    std::string events;  // why not the counters
    if (options.b2r_transport == B2rTransport::events)
      events = "--b2r-transport events";
    else if (options.peer_push == ExchangeOptions::PeerPush::copy)
      events = "pushes by the copy engines";
    else if (most_slabs_per_gpu(devices) > 1)
      events = "slabs sharing a GPU";  // also with --b2r-transport counters
    if (events.empty())
      return make_graph_exchange<Real>(std::move(context), "b2r",
                                       "counters on the GPUs, steps replayed as CUDA graphs");
    return make_overlap_exchange<Real>(std::move(context), "b2r",
                                       "events and host barriers, steps issued by the host (" + events + ")");
  }
#endif
  return make_host_staged_exchange<Real>(std::move(context), "b2r");
}

template <typename Real>
class B2rExchange final : public HaloExchange<Real> {
 public:
  B2rExchange(ExchangeContext<Real> context, std::string name)
      : HaloExchange<Real>(context), name_(std::move(name)), transport_(b2r_transport(std::move(context))) {}

  std::string name() const override { return name_; }
  std::string choices() const override { return transport_->choices(); }
  Index settling_steps(int s) const override { return transport_->settling_steps(s); }
  const std::vector<ExchangeTimes>& times() const override { return transport_->times(); }

  // R steps a block: the transport runs the halo plan's step loop at depth R.
  void advance(int s, Index first, Index count) override { transport_->advance(s, first, count); }
  void resolve_trace(int s) override { transport_->resolve_trace(s); }  // the transport noted the phases

 private:
  std::string name_;
  std::unique_ptr<HaloExchange<Real>> transport_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_b2r_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<B2rExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_b2r_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_b2r_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
