#include "src/exchange/halo_exchange.hpp"
#include "src/runtime/clock.hpp"

namespace yeex {

template <typename Real>
void SynchronousExchange<Real>::meet(int s) {
  const auto t0 = Clock::now();
  this->context_.team->barrier();
  this->times_[s].wait += seconds_since(t0);
}

template <typename Real>
void SynchronousExchange<Real>::exchange(int s, HaloPhase phase) {
  if (this->context_.plan.transfers(phase).empty()) return;
  ExchangeTimes& times = this->times_[s];
  // This subdomain's sweeps are done before its planes are read or its ghost planes written
  // (compute time, not exchange time).
  this->context_.engines[s]->synchronize();
  if (transfers_touch_neighbours()) meet(s);
  const double waited = times.wait;
  const auto t0 = Clock::now();
  transfer(s, phase);
  times.exchange += seconds_since(t0) - (times.wait - waited);  // less the barriers inside transfer()
  meet(s);  // nobody overwrites a plane another subdomain still reads
}

template <typename Real>
void SynchronousExchange<Real>::advance(int s, Index first, Index count) {
  this->plan_steps(s, first, count, [&](HaloPhase phase) { exchange(s, phase); });
}

template class SynchronousExchange<float>;
template class SynchronousExchange<double>;

}  // namespace yeex
