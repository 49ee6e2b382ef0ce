// overlap: border planes first on the high-priority border lane, pushed to the neighbours peer to
// peer right behind the sweeps that computed them, while the bulk lane sweeps the rest of the slab.
//
// Step loop: the border-first schedule (border_first_exchange.hpp), written once there; this file
// supplies its transport, PeerTransport (copy_transports.hpp).
// Data path: every GPU copies the planes its neighbours need straight into their ghost planes,
// over NVLink with peer access, by the copy engines (cudaMemcpyPeerAsync, one copy per component;
// two a phase at R = 1, NVIDIA's copy_overlap design) or, with R > 1 (ExchangeOptions::peer_push), by one
// push kernel per phase.
// Synchronisation: CUDA events (timing disabled) between the GPUs' border lanes, and host
// barriers that order each record before the waits on it (copy_transports.cu argues each read).
// No host thread waits for a GPU inside the step loop; one host synchronisation per call.
// Requirements: cuda engine; halo depth 1 (b2r runs it with R > 1); peer access between
// neighbouring GPUs (enabled at construction). times() stay zero: the copies overlap the sweeps on
// the GPUs, where host clocks cannot separate them.
#include "src/exchange/overlap_exchange.hpp"

#include <memory>
#include <string>
#include <utility>

#include "src/exchange/border_first_exchange.hpp"
#include "src/exchange/copy_transports.hpp"

namespace yeex {
namespace {

template <typename Real>
class OverlapExchange final : public BorderFirstExchange<Real> {
 public:
  OverlapExchange(ExchangeContext<Real> context, std::string name, std::string transport_choice)
      : BorderFirstExchange<Real>(std::move(context)),
        name_(std::move(name)),
        transport_choice_(std::move(transport_choice)),
        transport_(*this, name_) {}

  std::string name() const override { return name_; }
  std::string choices() const override { return transport_choice_; }

 protected:
  void start(int s) override { transport_.start(s); }
  void issue(int s, HaloPhase phase) override { transport_.issue(s, phase); }
  void await(int s, HaloPhase phase) override { transport_.await(s, phase); }

 private:
  std::string name_;
  std::string transport_choice_;  // b2r's: why this transport
  PeerTransport<Real> transport_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name) {
  return make_overlap_exchange<Real>(std::move(context), std::move(name), "");
}
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_overlap_exchange(ExchangeContext<Real> context, std::string name,
                                                          std::string transport_choice) {
  return std::make_unique<OverlapExchange<Real>>(std::move(context), std::move(name), std::move(transport_choice));
}
template std::unique_ptr<HaloExchange<float>> make_overlap_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_overlap_exchange(ExchangeContext<double>, std::string);
template std::unique_ptr<HaloExchange<float>> make_overlap_exchange(ExchangeContext<float>, std::string, std::string);
template std::unique_ptr<HaloExchange<double>> make_overlap_exchange(ExchangeContext<double>, std::string, std::string);

}  // namespace yeex
