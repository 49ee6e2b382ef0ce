// host-staged: every halo plane goes owned plane -> staging buffer in host memory -> ghost plane.
// make_host_staged_exchange (at the end) picks the path by engine: on GPUs the border-first
// schedule with the staged transport (host_staged_gpu.cu: D2H into pinned buffers and H2D behind
// the border sweeps, while the bulk sweeps); on the host engine this file's HostStagedExchange,
// the same route synchronously, between the sweeps.
//
// Step loop (host engine): SynchronousExchange's (synchronous_exchange.cpp); this class supplies
// transfer().
// Data path: per transfer one staging buffer holding its field planes, component after component,
// then the CPML psi of B+2R transfers (HaloExchange::state_chunks).
// Synchronisation: SynchronousExchange's step loop without the barrier before the transfers
// (transfers_touch_neighbours): each subdomain reads its own owned planes and writes its own ghost
// planes, from its own thread after its engine synchronised, so only the buffers are shared. In a
// phase each thread copies its sends into their buffers, meets the others (every buffer of the
// phase filled), copies its receives out: the phase's halos are in place when transfer() returns.
// The closing barrier tells each sender that its buffers have been read before the same phase of
// the next step fills them again.
// Requirements: none (any engine: Engine::read_memory and write_memory).
#include "src/exchange/host_staged_exchange.hpp"

#include <array>
#include <string>
#include <vector>

#include "src/exchange/staging_buffer.hpp"

namespace yeex {
namespace {

template <typename Real>
class HostStagedExchange final : public SynchronousExchange<Real> {
 public:
  HostStagedExchange(ExchangeContext<Real> context, std::string name)
      : SynchronousExchange<Real>(std::move(context)), name_(std::move(name)) {
    for (HaloPhase phase : kAllHaloPhases) {
      auto& routes = routes_[static_cast<int>(phase)];
      routes.reserve(this->context_.plan.transfers(phase).size());
      for (const HaloTransfer& t : this->context_.plan.transfers(phase)) routes.push_back(make_route(t));
    }
  }

  std::string name() const override { return name_; }

 protected:
  bool transfers_touch_neighbours() const override { return false; }

  void transfer(int s, HaloPhase phase) override {
    auto& routes = routes_[static_cast<int>(phase)];
    Engine<Real>& engine = *this->context_.engines[s];
    for (Route& r : routes)
      if (r.transfer->from == s)
        for (const Piece& p : r.pieces) engine.read_memory(p.source, p.count, r.buffer.data() + p.offset);
    this->meet(s);  // every buffer of the phase filled
    for (Route& r : routes)
      if (r.transfer->to == s)
        for (const Piece& p : r.pieces) engine.write_memory(p.destination, p.count, r.buffer.data() + p.offset);
  }

 private:
  // One contiguous run of engine memory: `count` elements from the sender's `source` to the
  // receiver's `destination`, through buffer elements [offset, offset + count).
  struct Piece {
    const Real* source;
    Real* destination;
    Index offset;
    Index count;
  };

  // One transfer of the plan, staged.
  struct Route {
    Route(const HaloTransfer& t, std::vector<Piece> runs, Index elements)
        : transfer(&t), buffer(static_cast<std::size_t>(elements)), pieces(std::move(runs)) {}
    const HaloTransfer* transfer;
    StagingBuffer<Real> buffer;
    std::vector<Piece> pieces;  // in buffer order
  };

  Route make_route(const HaloTransfer& t) {
    Engine<Real>& from = *this->context_.engines[t.from];
    Engine<Real>& to = *this->context_.engines[t.to];
    std::vector<Piece> pieces;
    Index offset = 0;
    const Index run = t.source.count() * from.layout().pitch_z;  // elements per component
    for (Component c : t.components) {
      pieces.push_back({from.field_data(c) + this->plane_offset(t.from, t.source.begin),
                        to.field_data(c) + this->plane_offset(t.to, t.destination.begin), offset, run});
      offset += run;
    }
    const auto& psi_out = this->state_chunks(t, t.from);  // matches psi_in entry by entry
    const auto& psi_in = this->state_chunks(t, t.to);
    for (std::size_t i = 0; i < psi_out.size(); ++i) {
      pieces.push_back({psi_out[i].data, psi_in[i].data, offset, psi_out[i].count});
      offset += psi_out[i].count;
    }
    return Route(t, std::move(pieces), offset);
  }

  std::string name_;
  std::array<std::vector<Route>, kHaloPhaseCount> routes_;  // [phase][transfer index in the plan]
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_exchange(ExchangeContext<Real> context, std::string name) {
#if YEEX_HAVE_CUDA
  if (context.engines.front()->device() >= 0)
    return make_host_staged_gpu_exchange<Real>(std::move(context), std::move(name));
#endif
  return std::make_unique<HostStagedExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_host_staged_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_host_staged_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
