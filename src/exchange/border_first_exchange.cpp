#include "src/exchange/border_first_exchange.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace yeex {
namespace {

// The engine marks of the schedule (see the diagram in the header).
enum Mark : int { kBulkDone = 0, kBulkHDone, kBorderEDone };
static_assert(kBorderEDone < kLaneMarks, "the schedule needs more marks than an engine has");

SplitSweep to_local(const SlabDecomposition& d, int s, const SplitSweep& cut) {
  return {d.to_local(s, cut.lower), d.to_local(s, cut.bulk), d.to_local(s, cut.upper)};
}

}  // namespace

template <typename Real>
BorderFirstExchange<Real>::BorderFirstExchange(ExchangeContext<Real> context) : HaloExchange<Real>(std::move(context)) {
  const SlabDecomposition& d = *this->context_.decomposition;
  const HaloPlan& plan = this->context_.plan;
  splits_.resize(static_cast<std::size_t>(d.size()));
  const Index asked = this->context_.options.graph_steps;
  const Index at_least = asked > 0 ? asked : kReplaySteps;
  const Index R = plan.halo_depth;
  replay_block_ = (at_least + R - 1) / R * R;
  recording_.assign(static_cast<std::size_t>(d.size()), -1);
  direct_steps_.assign(static_cast<std::size_t>(d.size()), 0);
  for (int s : this->context_.local) {
    if (!this->context_.engines.at(static_cast<std::size_t>(s)))
      throw std::invalid_argument("border-first exchange: subdomain " + std::to_string(s) + " has no engine");
    const BorderSplit cut = border_split(d, plan, s);
    splits_[s] = {to_local(d, s, cut.h), to_local(d, s, cut.e)};
  }
  for (HaloPhase phase : kAllHaloPhases) exchanges_[static_cast<int>(phase)] = !plan.transfers(phase).empty();
  exchanges_any_ = std::find(exchanges_.begin(), exchanges_.end(), true) != exchanges_.end();
}

template <typename Real>
void BorderFirstExchange<Real>::advance(int s, Index first, Index count) {
  if (count <= 0) return;  // the same for every thread: no transport barrier is skipped by one alone
  const Index R = this->context_.plan.halo_depth;
  Engine<Real>& engine = *this->context_.engines[s];
  start(s);
  const bool replay = replayable() && engine.can_record();
  const Index block = replay_block_;
  if (replay) engine.set_cursor(first, 0);
  for (Index n = first; n < first + count;) {
    // Traced steps are issued directly: a replayed recording is one launch, whose phases no mark
    // could separate.
    const bool traced = this->context_.trace && this->context_.trace->meets(n, block);
    if (replay && !traced && exchange_due(R, n) && first + count - n >= block && direct_steps_[s] >= R) {
      if (recording_[s] < 0) {
        engine.record_begin();
        for (Index k = 0; k < block; ++k) step(s, n + k, first, true);
        recording_[s] = engine.record_end();
      }
      engine.replay(recording_[s]);
      n += block;
      continue;
    }
    step(s, n, first, replay);
    if (replay) ++direct_steps_[s];
    ++n;
  }
  finish(s);
}

// ---- one Yee step of subdomain s ----
// Sources and probes take step n and slot n - first, or the cursor's (replay).
template <typename Real>
void BorderFirstExchange<Real>::step(int s, Index n, Index first, bool cursor) {
  const SlabDecomposition& d = *this->context_.decomposition;
  const Index R = this->context_.plan.halo_depth;
  Engine<Real>& engine = *this->context_.engines[s];
  using Span = typename HaloExchange<Real>::TraceSpan;
  const typename HaloExchange<Real>::HostSpan issuing(*this, s, n, "issue step");  // the host's share
  if (cursor)  // into the E sweeps where the engine can (Engine::fold_sources)
    engine.fold_sources_at_cursor();
  else
    engine.fold_sources(n);
  // One subdomain (nothing to exchange) sweeps as a step that does not exchange: the same
  // sweeps, without the lanes' marks and follows around empty borders, which cost a small grid
  // a noticeable share of its step.
  if (exchange_due(R, n) && exchanges_any_) {
    if (pushing_sweeps()) {
      const SweepRanges ranges = update_ranges(d, s, R, 0);
      const Span span(*this, s, n, Lane::bulk, "pushing sweeps H and E");
      sweep_pushing(s, d.to_local(s, ranges.h), d.to_local(s, ranges.e));
    } else {
      exchanging_step(s, n);
    }
  } else {
    const SweepRanges ranges = update_ranges(d, s, R, n % R);
    {
      const Span span(*this, s, n, Lane::bulk, "H");
      engine.update_h(d.to_local(s, ranges.h), Lane::bulk);
    }
    const Span span(*this, s, n, Lane::bulk, "E");
    engine.update_e(d.to_local(s, ranges.e), Lane::bulk);
  }
  {
    const Span span(*this, s, n, Lane::bulk, "sources");
    if (cursor)
      engine.inject_sources_at_cursor();
    else
      engine.inject_sources(n);
  }
  const Span span(*this, s, n, Lane::bulk, "probes");
  if (cursor)
    engine.sample_probes_at_cursor();
  else
    engine.sample_probes(n - first);
}

// The sweeps of a step that exchanges, up to (not including) its sources: the diagram in the header.
// Traced (yeex run --trace): each sweep part that is not empty, each issue and each await on the
// border lane (an await's span is the time that lane stood waiting for a neighbour's planes).
template <typename Real>
void BorderFirstExchange<Real>::exchanging_step(int s, Index n) {
  Engine<Real>& engine = *this->context_.engines[s];
  const BorderSplit& cut = splits_[s];
  using Span = typename HaloExchange<Real>::TraceSpan;
  constexpr std::array<const char*, kHaloPhaseCount> transfer = {"transfer before-block", "transfer before-h",
                                                                 "transfer before-e"};
  constexpr std::array<const char*, kHaloPhaseCount> awaiting = {"await before-block", "await before-h",
                                                                 "await before-e"};
  const auto issue_phase = [&](HaloPhase phase) {
    const Span span(*this, s, n, Lane::border, transfer[static_cast<int>(phase)]);
    issue(s, phase);
  };
  const auto await_phase = [&](HaloPhase phase) {
    const Span span(*this, s, n, Lane::border, awaiting[static_cast<int>(phase)]);
    await(s, phase);
  };
  const auto exchange = [&](HaloPhase phase) {
    if (!exchanges_[static_cast<int>(phase)]) return;
    issue_phase(phase);
    await_phase(phase);
  };
  const auto sweep = [&](bool h, const NodeRange& range, Lane lane, const char* name) {
    if (range.empty()) return (void)(h ? engine.update_h(range, lane) : engine.update_e(range, lane));
    const Span span(*this, s, n, lane, name);
    h ? engine.update_h(range, lane) : engine.update_e(range, lane);
  };
  // A transport that waits on the host gets each bulk sweep between the issue and the await of
  // the phase before it (the second diagram in the header), in slices with progress between them.
  const bool host_waits = awaits_on_host();
  const auto bulk = [&](bool h, const NodeRange& range, const char* name) {
    const int slices = host_waits ? std::max(1, bulk_slices(s)) : 1;
    if (slices == 1 || range.empty()) {
      sweep(h, range, Lane::bulk, name);
      if (host_waits) progress(s);
      return;
    }
    const Span span(*this, s, n, Lane::bulk, name);
    const Index planes = range.k1 - range.k0;
    for (int i = 0; i < slices; ++i) {
      NodeRange slice = range;
      slice.k0 = range.k0 + planes * i / slices;
      slice.k1 = range.k0 + planes * (i + 1) / slices;
      if (slice.empty()) continue;
      h ? engine.update_h(slice, Lane::bulk) : engine.update_e(slice, Lane::bulk);
      progress(s);
    }
  };
  const bool before_h[] = {exchanges_[static_cast<int>(HaloPhase::BeforeBlock)],
                           exchanges_[static_cast<int>(HaloPhase::BeforeH)]};
  const bool before_e = exchanges_[static_cast<int>(HaloPhase::BeforeE)];
  engine.mark(Lane::bulk, kBulkDone);
  engine.follow(Lane::border, kBulkDone);
  // ---- H half-step: the borders behind the exchange before H, the bulk beside it ----
  if (host_waits) {
    if (before_h[0]) issue_phase(HaloPhase::BeforeBlock);
    if (before_h[1]) issue_phase(HaloPhase::BeforeH);
    bulk(true, cut.h.bulk, "H bulk");
    engine.mark(Lane::bulk, kBulkHDone);
    if (before_h[0]) await_phase(HaloPhase::BeforeBlock);
    if (before_h[1]) await_phase(HaloPhase::BeforeH);
  } else {
    exchange(HaloPhase::BeforeBlock);
    exchange(HaloPhase::BeforeH);
  }
  sweep(true, cut.h.lower, Lane::border, "H lower border");
  sweep(true, cut.h.upper, Lane::border, "H upper border");
  if (before_e) issue_phase(HaloPhase::BeforeE);  // right behind the H borders it sends
  if (host_waits) {
    bulk(false, cut.e.bulk, "E bulk");  // reads only bulk H planes, overwrites none a border reads
  } else {
    sweep(true, cut.h.bulk, Lane::bulk, "H bulk");
    engine.mark(Lane::bulk, kBulkHDone);
  }
  if (before_e) await_phase(HaloPhase::BeforeE);
  // ---- E half-step: the borders after both H parts and the exchange before E; the bulk beside,
  // right behind the bulk H it alone reads (the split gives it no plane that reads a border H) ----
  engine.follow(Lane::border, kBulkHDone);
  sweep(false, cut.e.lower, Lane::border, "E lower border");
  sweep(false, cut.e.upper, Lane::border, "E upper border");
  engine.mark(Lane::border, kBorderEDone);
  if (!host_waits) sweep(false, cut.e.bulk, Lane::bulk, "E bulk");
  engine.follow(Lane::bulk, kBorderEDone);  // the sources and probes that follow see every E plane
}

template class BorderFirstExchange<float>;
template class BorderFirstExchange<double>;

}  // namespace yeex
