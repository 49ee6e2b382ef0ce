// host-staged: every halo plane goes device -> pinned host buffer -> device (on the host engine:
// owned plane -> staging buffer -> ghost plane). The slowest path and the one that works
// everywhere: no peer access, no NCCL.
//
// Data path: per transfer one staging buffer; the sender copies its planes into it (D2H), a
// barrier, the receiver copies them into its ghost planes (H2D). CPML psi of B+2R transfers
// (HaloExchange::psi_chunks) ride in the same buffer after the field planes.
// Synchronisation: SynchronousExchange's barriers around the phase, plus one in the middle.
// Requirements: none.
#include "src/exchange/host_staged_exchange.hpp"

#include "src/exchange/staging_buffer.hpp"

namespace yeex {
namespace {

template <typename Real>
class HostStagedExchange final : public SynchronousExchange<Real> {
 public:
  HostStagedExchange(ExchangeContext<Real> context, std::string name)
      : SynchronousExchange<Real>(std::move(context)), name_(std::move(name)) {
    const Index plane = this->context_.engines.front()->layout().pitch_z;
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase)) {
        const Index psi = this->psi_elements(this->psi_chunks(t, t.from));
        buffers_[static_cast<int>(phase)].emplace_back(t.components.size() * t.source.count() * plane + psi);
      }
  }

  std::string name() const override { return name_; }

 protected:
  void transfer(int s, HaloPhase phase) override {
    const auto& transfers = this->context_.plan.transfers(phase);
    auto& buffers = buffers_[static_cast<int>(phase)];
    const Index plane = this->context_.engines[s]->layout().pitch_z;
    // Send: pack my owned planes into each outgoing buffer.
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const HaloTransfer& t = transfers[i];
      if (t.from != s) continue;
      Real* out = buffers[i].data();
      for (Component c : t.components) {
        this->context_.engines[s]->copy_out(c, this->plane_offset(s, t.source.begin), t.source.count() * plane, out);
        out += t.source.count() * plane;
      }
      this->pack_psi(*this->context_.engines[s], this->psi_chunks(t, s), out);
    }
    this->context_.team->barrier();
    // Receive: unpack each incoming buffer into my ghost planes.
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const HaloTransfer& t = transfers[i];
      if (t.to != s) continue;
      const Real* in = buffers[i].data();
      for (Component c : t.components) {
        this->context_.engines[s]->copy_in(c, this->plane_offset(s, t.destination.begin), t.destination.count() * plane, in);
        in += t.destination.count() * plane;
      }
      this->unpack_psi(*this->context_.engines[s], this->psi_chunks(t, s), in);
    }
  }

 private:
  std::string name_;
  std::array<std::vector<StagingBuffer<Real>>, kHaloPhaseCount> buffers_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<HostStagedExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_host_staged_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_host_staged_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
