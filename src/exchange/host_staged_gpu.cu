// host-staged on GPUs: border planes first on the high-priority border lane, copied down into
// pinned host buffers right behind the sweeps that computed them and up by the receiver, while the
// bulk lane sweeps the rest of the slab. The route for GPUs without peer access (--no-peer).
//
// Step loop: the border-first schedule (border_first_exchange.hpp), written once there; this file
// supplies its transport, StagedTransport (copy_transports.hpp).
// Data path: every GPU copies the planes its neighbours need into a pinned host buffer of the
// transfer (D2H), and the receiver copies the buffer up into its ghost planes (H2D) on its own
// border lane once the sender's event says the D2H is done.
// Synchronisation: CUDA events (timing disabled) between the GPUs' border lanes, and host
// barriers that order each record before the waits on it (copy_transports.cu argues each read).
// No host thread waits for a GPU inside the step loop; one host synchronisation per call.
// Requirements: cuda engine; halo depth 1 (b2r runs it with R > 1 under --no-peer). times() stay
// zero: the copies overlap the sweeps on the GPUs.
#include <memory>
#include <string>
#include <utility>

#include "src/exchange/border_first_exchange.hpp"
#include "src/exchange/copy_transports.hpp"
#include "src/exchange/host_staged_exchange.hpp"

namespace yeex {
namespace {

template <typename Real>
class HostStagedGpuExchange final : public BorderFirstExchange<Real> {
 public:
  HostStagedGpuExchange(ExchangeContext<Real> context, std::string name)
      : BorderFirstExchange<Real>(std::move(context)), name_(std::move(name)), transport_(*this, name_) {}

  std::string name() const override { return name_; }

 protected:
  void start(int s) override { transport_.start(s); }
  void issue(int s, HaloPhase phase) override { transport_.issue(s, phase); }
  void await(int s, HaloPhase phase) override { transport_.await(s, phase); }

 private:
  std::string name_;
  StagedTransport<Real> transport_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_gpu_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<HostStagedGpuExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_host_staged_gpu_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_host_staged_gpu_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
