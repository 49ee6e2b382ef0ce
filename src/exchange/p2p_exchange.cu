// p2p: halo planes copied GPU to GPU with cudaMemcpyPeerAsync over peer access (NVLink or PCIe),
// synchronous per half-step. (b2r, with --halo-depth R > 1, pushes its planes behind the border
// sweeps instead: b2r_exchange.cpp.)
//
// Data path: the receiver pulls each of its transfers straight from the sender's owned planes
// into its ghost planes (one copy per component and transfer: a run of whole padded planes is
// contiguous), and the CPML psi of B+2R transfers chunk by chunk (HaloExchange::state_chunks), on
// its bulk stream, and waits for them.
// Synchronisation: SynchronousExchange's barriers around the phase (the sender's planes are final
// before the copy; nobody sweeps until every copy has landed).
// Requirements: cuda engine; peer access between neighbouring GPUs (enabled at construction), or
// --no-peer, which turns it off so that the driver stages every copy through host memory.
#include "src/exchange/p2p_exchange.hpp"

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"

namespace yeex {
namespace {

template <typename Real>
class P2PExchange final : public SynchronousExchange<Real> {
 public:
  P2PExchange(ExchangeContext<Real> context, std::string name)
      : SynchronousExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto& engines = this->context_.engines;
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase))
        set_peer_access(engines[t.from]->device(), engines[t.to]->device(), this->context_.peer_access);
  }

  std::string name() const override { return name_; }

 protected:
  void transfer(int s, HaloPhase phase) override {
    const auto& engines = this->context_.engines;
    Engine<Real>& to = *engines[s];
    const auto stream = static_cast<cudaStream_t>(to.native_stream());
    const std::size_t plane_bytes = to.layout().pitch_z * sizeof(Real);
    for (const HaloTransfer& t : this->context_.plan.transfers(phase)) {
      if (t.to != s) continue;
      Engine<Real>& from = *engines[t.from];
      for (Component c : t.components)
        YEEX_CUDA(cudaMemcpyPeerAsync(to.field_data(c) + this->plane_offset(s, t.destination.begin), to.device(),
                                      from.field_data(c) + this->plane_offset(t.from, t.source.begin), from.device(),
                                      t.source.count() * plane_bytes, stream));
      const auto& into = this->state_chunks(t, s);
      const auto& out_of = this->state_chunks(t, t.from);
      for (std::size_t i = 0; i < into.size(); ++i)
        YEEX_CUDA(cudaMemcpyPeerAsync(into[i].data, to.device(), out_of[i].data, from.device(),
                                      into[i].count * sizeof(Real), stream));
    }
    YEEX_CUDA(cudaStreamSynchronize(stream));
  }

 private:
  std::string name_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_p2p_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<P2PExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_p2p_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_p2p_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
