#include <chrono>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {
namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

template <typename Real>
Index SynchronousExchange<Real>::plane_offset(int s, Index k) const {
  const auto& d = *this->context_.decomposition;
  return this->context_.engines[s]->layout().plane_offset(d.local_k(s, k));
}

template <typename Real>
void SynchronousExchange<Real>::exchange(int s, HaloPhase phase) {
  if (this->context_.plan.transfers(phase).empty()) return;
  Engine<Real>& engine = *this->context_.engines[s];
  ExchangeTimes& times = this->times_[s];
  engine.synchronize();  // this subdomain's planes are final before anyone reads them (compute time)
  auto t0 = Clock::now();
  this->context_.team->barrier();
  times.wait += since(t0);
  t0 = Clock::now();
  transfer(s, phase);
  times.exchange += since(t0);
  t0 = Clock::now();
  this->context_.team->barrier();  // nobody overwrites a plane another subdomain still reads
  times.wait += since(t0);
}

template <typename Real>
void SynchronousExchange<Real>::advance(int s, Index first, Index count) {
  this->plan_steps(s, first, count, [&](HaloPhase phase) { exchange(s, phase); });
}

template class SynchronousExchange<float>;
template class SynchronousExchange<double>;

}  // namespace yeex
