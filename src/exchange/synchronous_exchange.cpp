#include "src/exchange/halo_exchange.hpp"
#include "src/runtime/clock.hpp"

namespace yeex {

template <typename Real>
void SynchronousExchange<Real>::meet(int s) {
  const HostSpan span(*this, s, step_[s], "barrier");
  const auto t0 = Clock::now();
  this->context_.team->barrier();
  this->times_[s].wait += seconds_since(t0);
}

// Traced (yeex run --trace): the wait for the engine and the barriers on the host thread's lane,
// the transfers on the bulk lane, where p2p's copies run (on the host engine: where its thread
// copied).
template <typename Real>
void SynchronousExchange<Real>::exchange(int s, HaloPhase phase, Index n) {
  if (this->context_.plan.transfers(phase).empty()) return;
  step_[s] = n;
  ExchangeTimes& times = this->times_[s];
  // This subdomain's sweeps are done before its planes are read or its ghost planes written
  // (compute time, not exchange time).
  {
    const HostSpan span(*this, s, n, "sync");
    this->context_.engines[s]->synchronize();
  }
  if (transfers_touch_neighbours()) meet(s);
  const double waited = times.wait;
  const auto t0 = Clock::now();
  {
    constexpr std::array<const char*, kHaloPhaseCount> names = {"transfer before-block", "transfer before-h",
                                                                "transfer before-e"};
    const TraceSpan span(*this, s, n, Lane::bulk, names[static_cast<int>(phase)]);
    transfer(s, phase);
  }
  times.exchange += seconds_since(t0) - (times.wait - waited);  // less the barriers inside transfer()
  meet(s);  // nobody overwrites a plane another subdomain still reads
}

template <typename Real>
void SynchronousExchange<Real>::advance(int s, Index first, Index count) {
  this->plan_steps(s, first, count, [&](HaloPhase phase, Index n) { exchange(s, phase, n); });
}

template class SynchronousExchange<float>;
template class SynchronousExchange<double>;

}  // namespace yeex
