// The border-first schedule (src/exchange/border_first_exchange.hpp) proved on the CPU: its own
// code drives one recording engine per subdomain and a transport, either with NCCL's semantics (a
// phase's sends and receives issued as one group on the border lane, each transfer done once both
// ends have reached their group, each group complete on its lane once its transfers are), or
// with the protocol of overlap's and host-staged's copies (src/exchange/copy_transports.cu:
// pushes on the sender's border lane, events recorded and waited across subdomains, host
// barriers between; staged, each push goes into a buffer of the transfer and the receiver copies
// it up on its own border lane). The record is what a GPU must respect: the order of each lane,
// every follow of a mark, the groups, every event wait (resolved, as cudaStreamWaitEvent does,
// to the last record issued before it on the host: the barriers the threads passed tell which;
// a record and a wait of one event between the same two barriers is a race and fails the test).
// The 1-D image of the Yee step (tests/support/plane_model.hpp) then runs that graph of work in
// many random orders that respect it. An order the schedule forgot lets some random order read a
// plane of the wrong step or overwrite one (or a staging buffer) too early, which the image
// reports; so every order must read only valid planes and end bit for bit where the
// single-domain run ends. The graph backend's protocol (CounterTransport, with
// src/exchange/peer_flags.hpp) is proved the same way: its signals and waits on counters that
// only grow resolve exactly (the k-th wait on a counter follows its k-th signal), with no host
// barrier in a step.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/exchange/border_first_exchange.hpp"
#include "src/runtime/thread_team.hpp"
#include "tests/support/plane_model.hpp"

namespace yeex {
namespace {

using namespace yeex::testing;

// One call into an engine or the transport, in the order the schedule issued it.
struct Call {
  enum Kind {
    sweep_h,
    sweep_e,
    sources,
    mark,
    follow,
    group,
    push,
    copy_up,
    record,
    wait,
    signal,
    flag_wait,
    synchronize
  } kind;
  Lane lane = Lane::bulk;
  PlaneRange planes;  // sweeps: global planes
  int mark_id = 0;    // mark, follow; record, wait: the event; push, copy_up: the transfer's index in the
                      // phase; signal, flag_wait: the counter
  HaloPhase phase{};  // group, push, copy_up
  long epoch = 0;     // record, wait: host barriers the thread had passed
};

// Records the calls that order or change fields; what the schedule does not use throws.
class RecordingEngine final : public Engine<float> {
 public:
  RecordingEngine(const SlabDecomposition& d, int s, std::vector<Call>& calls, std::function<bool(Lane)> drop_follow)
      : d_(d), s_(s), calls_(calls), drop_follow_(std::move(drop_follow)) {}

  std::string name() const override { return "recording"; }
  const FieldLayout& layout() const override { return layout_; }
  int device() const override { return -1; }
  void update_h(const NodeRange& r, Lane lane) override { sweep(Call::sweep_h, r, lane); }
  void update_e(const NodeRange& r, Lane lane) override { sweep(Call::sweep_e, r, lane); }
  void inject_sources(Index) override { calls_.push_back({Call::sources, Lane::bulk, {}, 0, {}}); }
  void sample_probes(Index) override {}  // reads, after the sources on the same lane
  void fetch_probes(Index, std::vector<float>&) override { unused(); }
  void copy_out(Component, Index, Index, float*) override { unused(); }
  void copy_in(Component, Index, Index, const float*) override { unused(); }
  float* field_data(Component) override { return nullptr; }
  CpmlView<float> cpml() const override { return {}; }
  std::vector<StateChunk<float>> dispersion_chunks(Index, Index) const override { return {}; }
  void read_memory(const float*, Index, float*) override { unused(); }
  void write_memory(float*, Index, const float*) override { unused(); }
  void* native_stream(Lane) override { return nullptr; }
  void mark(Lane lane, int m) override { calls_.push_back({Call::mark, lane, {}, m, {}}); }
  void follow(Lane lane, int m) override {
    if (!drop_follow_ || !drop_follow_(lane)) calls_.push_back({Call::follow, lane, {}, m, {}});
  }
  void synchronize() override { calls_.push_back({Call::synchronize, Lane::bulk, {}, 0, {}}); }

 private:
  void sweep(Call::Kind kind, const NodeRange& r, Lane lane) {
    if (r.empty()) return;  // as the cuda engine: no kernel
    calls_.push_back({kind, lane, {d_.global_k(s_, r.k0), d_.global_k(s_, r.k1)}, 0, {}});
  }
  [[noreturn]] static void unused() { throw std::logic_error("the schedule does not call this"); }

  const SlabDecomposition& d_;
  int s_;
  std::vector<Call>& calls_;
  std::function<bool(Lane)> drop_follow_;
  FieldLayout layout_;
};

// The transport: issue() opens one group on the border lane; the receives in it complete in the
// lane's order, so await() has nothing to do (as nccl).
class GroupTransport final : public BorderFirstExchange<float> {
 public:
  GroupTransport(ExchangeContext<float> context, std::vector<std::vector<Call>>& calls)
      : BorderFirstExchange<float>(std::move(context)), calls_(calls) {}
  std::string name() const override { return "groups"; }

 protected:
  void issue(int s, HaloPhase phase) override { calls_[s].push_back({Call::group, Lane::border, {}, 0, phase}); }

 private:
  std::vector<std::vector<Call>>& calls_;
};

// The protocol of overlap's transports (src/exchange/copy_transports.cu), recorded: start()
// synchronises and meets; issue() records ready and meets (R > 1: waits for the receivers'
// ready), pushes (peer: into the receiver's ghost planes; staged: into the transfer's buffer) and
// records pushed[sender][phase]; await() meets, waits for pushed of every transfer into it, and,
// staged, copies each buffer up, all on the border lane.
class CopyTransport final : public BorderFirstExchange<float> {
 public:
  CopyTransport(ExchangeContext<float> context, std::vector<std::vector<Call>>& calls, bool staged, bool waits)
      : BorderFirstExchange<float>(std::move(context)),
        calls_(calls),
        staged_(staged),
        waits_(waits),
        epoch_(calls.size(), 0) {}
  std::string name() const override { return staged_ ? "staged copies" : "peer copies"; }

  // Event ids: pushed[s][phase], ready[s].
  int pushed(int s, HaloPhase phase) const { return s * (kHaloPhaseCount + 1) + static_cast<int>(phase); }
  int ready(int s) const { return s * (kHaloPhaseCount + 1) + kHaloPhaseCount; }

 protected:
  void start(int s) override {
    this->context_.engines[s]->synchronize();
    meet(s);
  }
  void issue(int s, HaloPhase phase) override {
    const auto& transfers = this->context_.plan.transfers(phase);
    if (this->context_.plan.halo_depth > 1) {
      add(s, {Call::record, Lane::border, {}, ready(s), {}, epoch_[s]});
      meet(s);
      for (const HaloTransfer& t : transfers)
        if (t.from == s) add(s, {Call::wait, Lane::border, {}, ready(t.to), {}, epoch_[s]});
    }
    bool any = false;
    for (std::size_t i = 0; i < transfers.size(); ++i)
      if (transfers[i].from == s) add(s, {Call::push, Lane::border, {}, static_cast<int>(i), phase, 0}), any = true;
    if (any) add(s, {Call::record, Lane::border, {}, pushed(s, phase), {}, epoch_[s]});
  }
  void await(int s, HaloPhase phase) override {
    meet(s);
    const auto& transfers = this->context_.plan.transfers(phase);
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      if (transfers[i].to != s) continue;
      if (waits_) add(s, {Call::wait, Lane::border, {}, pushed(transfers[i].from, phase), {}, epoch_[s]});
      if (staged_) add(s, {Call::copy_up, Lane::border, {}, static_cast<int>(i), phase, 0});
    }
  }

 private:
  void add(int s, Call c) { calls_[s].push_back(c); }
  void meet(int s) {
    this->context_.team->barrier();
    ++epoch_[s];
  }

  std::vector<std::vector<Call>>& calls_;
  bool staged_, waits_;
  std::vector<long> epoch_;  // [subdomain]: host barriers its thread has passed
};

// The protocol of the graph backend's transport (copy_transports.cu, CounterTransport), recorded:
// start() synchronises and meets; issue() (R > 1: signals ready to the subdomains that push to it
// and waits for the ready of those it pushes to) pushes into the receivers' ghost planes and
// signals each receiver's counter; await() waits for the counter of every sender into it. No
// barrier in a step. (waits = false: await() waits for nothing, which the checks must catch.)
class FlagTransport final : public BorderFirstExchange<float> {
 public:
  FlagTransport(ExchangeContext<float> context, std::vector<std::vector<Call>>& calls, bool waits)
      : BorderFirstExchange<float>(std::move(context)), calls_(calls), waits_(waits) {}
  std::string name() const override { return "flags"; }

  // Counter ids: what `from` signals to `to` on a channel (a phase, or ready).
  int counter(int from, int to, int channel) const {
    return (from * static_cast<int>(calls_.size()) + to) * (kHaloPhaseCount + 1) + channel;
  }

 protected:
  void start(int s) override {
    this->context_.engines[s]->synchronize();
    this->context_.team->barrier();
  }
  void issue(int s, HaloPhase phase) override {
    const auto& transfers = this->context_.plan.transfers(phase);
    if (this->context_.plan.halo_depth > 1) {
      for (int from : ends(transfers, s, false)) add(s, Call::signal, counter(s, from, kHaloPhaseCount));
      for (int to : ends(transfers, s, true)) add(s, Call::flag_wait, counter(to, s, kHaloPhaseCount));
    }
    for (std::size_t i = 0; i < transfers.size(); ++i)
      if (transfers[i].from == s) calls_[s].push_back({Call::push, Lane::border, {}, static_cast<int>(i), phase, 0});
    for (int to : ends(transfers, s, true)) add(s, Call::signal, counter(s, to, static_cast<int>(phase)));
  }
  void await(int s, HaloPhase phase) override {
    if (!waits_) return;
    for (int from : ends(this->context_.plan.transfers(phase), s, false))
      add(s, Call::flag_wait, counter(from, s, static_cast<int>(phase)));
  }

 private:
  // The subdomains s pushes to (sending) or that push to s, once each.
  static std::vector<int> ends(const std::vector<HaloTransfer>& transfers, int s, bool sending) {
    std::vector<int> list;
    for (const HaloTransfer& t : transfers) {
      const int other = sending ? t.to : t.from;
      if ((sending ? t.from : t.to) == s && std::find(list.begin(), list.end(), other) == list.end())
        list.push_back(other);
    }
    return list;
  }
  void add(int s, Call::Kind kind, int id) { calls_[s].push_back({kind, Lane::border, {}, id, {}, 0}); }

  std::vector<std::vector<Call>>& calls_;
  bool waits_;
};

// The work the record allows, as a graph: sweeps, sources, group starts and ends, transfers.
struct Work {
  enum Kind { sweep_h, sweep_e, sources, group_start, group_end, transfer, stage, unstage, none } kind;
  int s = 0;
  Index step = 0;
  PlaneRange planes;
  const HaloTransfer* moved = nullptr;  // transfer, stage (into its buffer), unstage (out of it)
  std::vector<int> after;               // the work that must be done first
};

class WorkGraph {
 public:
  // staged: pushes go into buffers (copy transports only).
  WorkGraph(const HaloPlan& plan, const std::vector<std::vector<Call>>& calls, bool staged = false) : staged_(staged) {
    // [subdomain][phase][k]: the k-th group of that phase, as its start and end
    std::vector<std::array<std::vector<std::pair<int, int>>, kHaloPhaseCount>> groups(calls.size());
    for (std::size_t s = 0; s < calls.size(); ++s) add_lanes(plan, static_cast<int>(s), calls[s], groups[s]);
    resolve_event_waits();
    // A wait on a counter that only grows is met by as many signals as waits before it: the k-th
    // wait follows the k-th signal (never met if there is none: the cycle check reports it).
    for (const auto& [id, waits] : flag_waits_)
      for (std::size_t k = 0; k < waits.size(); ++k) {
        const auto signals = signals_.find(id);
        if (signals != signals_.end() && k < signals->second.size())
          work_[waits[k]].after.push_back(signals->second[k]);
        else
          work_[waits[k]].after.push_back(waits[k]);  // a wait that nothing meets: a cycle
      }
    // Each transfer of the k-th group of a phase starts when both ends have started that group;
    // each end's group ends after it.
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : plan.transfers(phase)) {
        const auto& sent = groups[t.from][static_cast<int>(phase)];
        const auto& received = groups[t.to][static_cast<int>(phase)];
        EXPECT_EQ(sent.size(), received.size()) << "the two ends of a transfer opened different numbers of groups";
        for (std::size_t k = 0; k < std::min(sent.size(), received.size()); ++k) {
          const int x = add({Work::transfer, t.to, 0, {}, &t, {sent[k].first, received[k].first}});
          work_[sent[k].second].after.push_back(x);
          work_[received[k].second].after.push_back(x);
        }
      }
  }

  const std::vector<Work>& work() const { return work_; }
  const std::string& race() const { return race_; }

 private:
  struct Record {
    long epoch;
    int work;  // a no-op on its lane: what it stands for
  };
  struct Wait {
    int event;
    long epoch;
    int work;  // the no-op on the lane that the record must precede
    int s;
  };

  // cudaStreamWaitEvent waits for the record enqueued before the call: the one of the latest
  // epoch before the wait's (a record in the same epoch may come before or after it on the host).
  void resolve_event_waits() {
    for (const Wait& w : waits_) {
      const Record* latest = nullptr;
      for (const Record& r : records_[w.event]) {
        if (r.epoch == w.epoch)
          note(race_, "subdomain " + to_string(w.s) + " waits for event " + to_string(w.event) +
                          " between the same two barriers as a record of it");
        if (r.epoch < w.epoch && (!latest || r.epoch > latest->epoch)) latest = &r;
      }
      if (latest && latest->work >= 0) work_[w.work].after.push_back(latest->work);
    }
  }
  int add(Work w) {
    work_.push_back(std::move(w));
    return static_cast<int>(work_.size()) - 1;
  }

  void add_lanes(const HaloPlan& plan, int s, const std::vector<Call>& calls,
                 std::array<std::vector<std::pair<int, int>>, kHaloPhaseCount>& groups) {
    std::array<int, 2> last = {-1, -1};       // [lane]: the last work issued on it
    std::array<std::vector<int>, 2> pending;  // [lane]: follows for the next work on it
    std::array<int, kLaneMarks> marked;       // [mark]: the work it stands for
    marked.fill(-1);
    Index step = 0;
    const auto on_lane = [&](Lane lane, Work w) {
      const int l = static_cast<int>(lane);
      if (last[l] >= 0) w.after.push_back(last[l]);
      for (int p : pending[l]) w.after.push_back(p);
      pending[l].clear();
      return last[l] = add(std::move(w));
    };
    for (const Call& c : calls) {
      switch (c.kind) {
        case Call::sweep_h:
        case Call::sweep_e:
          on_lane(c.lane, {c.kind == Call::sweep_h ? Work::sweep_h : Work::sweep_e, s, step, c.planes, nullptr, {}});
          break;
        case Call::sources: on_lane(c.lane, {Work::sources, s, step++, {}, nullptr, {}}); break;
        case Call::mark: marked[c.mark_id] = last[static_cast<int>(c.lane)]; break;
        case Call::follow:
          if (marked[c.mark_id] >= 0) pending[static_cast<int>(c.lane)].push_back(marked[c.mark_id]);
          break;
        case Call::group: {
          const int start = on_lane(c.lane, {Work::group_start, s, step, {}, nullptr, {}});
          const int end = on_lane(c.lane, {Work::group_end, s, step, {}, nullptr, {}});
          groups[static_cast<int>(c.phase)].emplace_back(start, end);
          break;
        }
        case Call::push:
          on_lane(c.lane,
                  {staged_ ? Work::stage : Work::transfer, s, step, {}, &plan.transfers(c.phase)[c.mark_id], {}});
          break;
        case Call::copy_up:
          on_lane(c.lane, {Work::unstage, s, step, {}, &plan.transfers(c.phase)[c.mark_id], {}});
          break;
        case Call::record:  // stands for the lane's work and for the follows and waits enqueued before it
          records_[c.mark_id].push_back({c.epoch, on_lane(c.lane, {Work::none, s, step, {}, nullptr, {}})});
          break;
        case Call::wait:
          waits_.push_back({c.mark_id, c.epoch, on_lane(c.lane, {Work::none, s, step, {}, nullptr, {}}), s});
          break;
        case Call::signal:  // stands for the lane's work before it, as a record
          signals_[c.mark_id].push_back(on_lane(c.lane, {Work::none, s, step, {}, nullptr, {}}));
          break;
        case Call::flag_wait:
          flag_waits_[c.mark_id].push_back(on_lane(c.lane, {Work::none, s, step, {}, nullptr, {}}));
          break;
        case Call::synchronize: {
          // Both lanes drained, then the host barrier: everything after it, on every subdomain,
          // follows everything before it on every subdomain (synchronize calls come in the same
          // order on every subdomain, so the k-th one of each meets at the same barrier).
          const int k = synchronized_[s]++;
          if (!barriers_.count(k)) barriers_[k] = add({Work::none, s, step, {}, nullptr, {}});
          const int barrier = barriers_[k];
          for (int l : {0, 1}) {
            if (last[l] >= 0) work_[barrier].after.push_back(last[l]);
            for (int p : pending[l]) work_[barrier].after.push_back(p);
            pending[l] = {barrier};
          }
          break;
        }
      }
    }
  }

  bool staged_ = false;
  std::vector<Work> work_;
  std::map<int, std::vector<Record>> records_;  // [event]
  std::vector<Wait> waits_;
  std::map<int, std::vector<int>> signals_, flag_waits_;  // [counter]: its signals, its waits, in order
  std::map<int, int> barriers_;                           // [k]: the k-th synchronize's barrier (a no-op)
  std::map<int, int> synchronized_;                       // [subdomain]: synchronize calls so far
  std::string race_;
};

// Runs the graph in a random order that respects it, on the 1-D image, beside the single-domain
// run; returns what went wrong first (empty strings: nothing).
Findings run_in_random_order(const SlabDecomposition& d, const WorkGraph& graph, Index steps, std::uint64_t seed) {
  const Index nz = d.grid().nz;
  std::vector<PlaneStore> slabs;
  for (int s = 0; s < d.size(); ++s) slabs.emplace_back(d.array_planes(s), stored_planes(d.subdomain(s)), nz);
  const auto& work = graph.work();
  std::vector<int> waiting(work.size());
  std::vector<std::vector<int>> unblocks(work.size());
  std::vector<int> ready;
  for (std::size_t w = 0; w < work.size(); ++w) {
    waiting[w] = static_cast<int>(work[w].after.size());
    for (int before : work[w].after) unblocks[before].push_back(static_cast<int>(w));
    if (waiting[w] == 0) ready.push_back(static_cast<int>(w));
  }
  std::mt19937_64 rng(seed);
  std::map<const HaloTransfer*, std::vector<Cell>> buffers;  // staged transfers
  Findings found;
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng);
    const int w = ready[pick];
    ready[pick] = ready.back();
    ready.pop_back();
    const Work& x = work[w];
    const std::string who = "subdomain " + to_string(x.s);
    switch (x.kind) {
      case Work::sweep_h: sweep(slabs[x.s], false, x.planes, x.step, who, found.invalid_read); break;
      case Work::sweep_e: sweep(slabs[x.s], true, x.planes, x.step, who, found.invalid_read); break;
      case Work::sources: inject(slabs[x.s], source_planes(d, x.s, d.halo_depth()), nz, x.step); break;
      case Work::transfer: execute({*x.moved}, slabs); break;
      case Work::stage: {  // the sender's planes into the transfer's buffer
        auto& buffer = buffers[x.moved];
        buffer.clear();
        for (Component c : x.moved->components)
          for (Index k = x.moved->source.begin; k < x.moved->source.end; ++k) buffer.push_back(slabs[x.s].at(c, k));
        break;
      }
      case Work::unstage: {  // and out of it into the receiver's ghost planes (garbage if never filled)
        const auto& buffer = buffers[x.moved];
        std::size_t i = 0;
        for (Component c : x.moved->components)
          for (Index k = x.moved->destination.begin; k < x.moved->destination.end; ++k, ++i)
            slabs[x.s].at(c, k) = i < buffer.size() ? buffer[i] : Cell{0xBAD0ull, kStale};
        break;
      }
      case Work::group_start:
      case Work::group_end:
      case Work::none: break;
    }
    ++done;
    for (int next : unblocks[w])
      if (--waiting[next] == 0) ready.push_back(next);
  }
  if (done != work.size()) note(found.invalid_read, "the graph has a cycle: the schedule would deadlock");
  SingleDomain reference{nz};
  for (Index n = 0; n < steps; ++n) reference.step(n);
  compare_stored(d, slabs, reference, steps - 1, found);
  return found;
}

// The schedule of every subdomain over `steps` steps, advanced in chunks of 1, 2, 3, ... steps
// (as the solver returns to the host between chunks, which need not start a block).
// The transports the schedule is proved with.
// (staged_without_waits: the receivers copy up without waiting for the senders' events, which
// the checks must catch.)
enum class Transport { groups, peer_copies, staged_copies, staged_without_waits, peer_flags, flags_without_waits };

std::vector<std::vector<Call>> record(const SlabDecomposition& d, Index depth, Index steps,
                                      const std::function<bool(Lane)>& drop_follow = {},
                                      Transport transport = Transport::groups) {
  std::vector<std::vector<Call>> calls(static_cast<std::size_t>(d.size()));
  std::vector<std::unique_ptr<RecordingEngine>> engines;
  ExchangeContext<float> context;
  context.decomposition = &d;
  context.plan = halo_plan(d, depth);
  for (int s = 0; s < d.size(); ++s) {
    engines.push_back(std::make_unique<RecordingEngine>(d, s, calls[s], drop_follow));
    context.engines.push_back(engines.back().get());
    context.local.push_back(s);
  }
  if (transport == Transport::groups) {
    GroupTransport exchange(std::move(context), calls);
    for (Index first = 0, chunk = 1; first < steps; first += chunk, ++chunk)
      for (int s = 0; s < d.size(); ++s) exchange.advance(s, first, std::min(chunk, steps - first));
    return calls;
  }
  // The copy transports meet at host barriers: one thread per subdomain, as in threads mode.
  ThreadTeam team(d.size());
  context.team = &team;
  if (transport == Transport::peer_flags || transport == Transport::flags_without_waits) {
    FlagTransport exchange(std::move(context), calls, transport == Transport::peer_flags);
    for (Index first = 0, chunk = 1; first < steps; first += chunk, ++chunk)
      team.run([&](int s) { exchange.advance(s, first, std::min(chunk, steps - first)); });
    return calls;
  }
  CopyTransport exchange(std::move(context), calls, transport != Transport::peer_copies,
                         transport != Transport::staged_without_waits);
  for (Index first = 0, chunk = 1; first < steps; first += chunk, ++chunk)
    team.run([&](int s) { exchange.advance(s, first, std::min(chunk, steps - first)); });
  return calls;
}

Findings run_case(const Case& c, int orders, const std::function<bool(Lane)>& drop_follow = {},
                  Transport transport = Transport::groups) {
  const SlabDecomposition d = decompose(c);
  const Index steps = 3 * c.depth + 2;
  const auto calls = record(d, c.depth, steps, drop_follow, transport);
  const HaloPlan plan = halo_plan(d, c.depth);  // the graph points at its transfers
  const bool staged = transport == Transport::staged_copies || transport == Transport::staged_without_waits;
  const WorkGraph graph(plan, calls, staged);
  Findings first;
  note(first.invalid_read, graph.race());
  for (int order = 0; order < orders; ++order) {
    const std::uint64_t seed = 1000 * c.nz + 100 * c.subdomains + 10 * c.depth + order;
    const Findings found = run_in_random_order(d, graph, steps, seed);
    note(first.invalid_read, found.invalid_read);
    note(first.invalid_owned, found.invalid_owned);
    note(first.mismatch, found.mismatch);
  }
  return first;
}

TEST(BorderFirstSchedule, EveryOrderTheGpuMayRunReadsOnlyValidPlanes) {
  for (const Case& c : valid_cases()) EXPECT_EQ(run_case(c, 40).invalid_read, "") << c.label();
}

TEST(BorderFirstSchedule, EveryOrderTheGpuMayRunMatchesTheSingleDomainRunBitForBit) {
  for (const Case& c : valid_cases()) {
    const Findings found = run_case(c, 40);
    EXPECT_EQ(found.invalid_owned, "") << c.label();
    EXPECT_EQ(found.mismatch, "") << c.label();
  }
}

// overlap's and host-staged's protocol (src/exchange/copy_transports.cu): pushes peer to peer,
// or staged through a buffer per transfer that the receiver copies up, ordered by events across
// subdomains and host barriers. Every order a GPU may run reads only valid planes (staged: also
// no buffer refilled before its copy up) and ends bit for bit on the single-domain run.
TEST(BorderFirstSchedule, CopyTransportsInEveryOrderMatchTheSingleDomainRun) {
  for (const Transport transport : {Transport::peer_copies, Transport::staged_copies})
    for (const Case& c : valid_cases()) {
      const Findings found = run_case(c, 20, {}, transport);
      const std::string what = c.label() + (transport == Transport::staged_copies ? ", staged" : ", peer");
      EXPECT_EQ(found.invalid_read, "") << what;
      EXPECT_EQ(found.invalid_owned, "") << what;
      EXPECT_EQ(found.mismatch, "") << what;
    }
}

// The graph backend's protocol: pushes peer to peer, ordered by counters that only grow (no host
// barrier in a step). Every order a GPU may run reads only valid planes and ends bit for bit on
// the single-domain run; without the receivers' waits, some order goes wrong.
TEST(BorderFirstSchedule, FlagTransportInEveryOrderMatchesTheSingleDomainRun) {
  for (const Case& c : valid_cases()) {
    const Findings found = run_case(c, 20, {}, Transport::peer_flags);
    EXPECT_EQ(found.invalid_read, "") << c.label();
    EXPECT_EQ(found.invalid_owned, "") << c.label();
    EXPECT_EQ(found.mismatch, "") << c.label();
  }
  for (const Case& c : {Case{24, 3, 1}, Case{24, 3, 2}}) {
    const Findings found = run_case(c, 40, {}, Transport::flags_without_waits);
    EXPECT_TRUE(!found.invalid_read.empty() || !found.mismatch.empty()) << c.label() << ", no waits";
  }
}

TEST(BorderFirstSchedule, TheBorderLaneCarriesTheExchangesAndTheBorders) {
  const SlabDecomposition d(GridShape{5, 4, 40}, 4, 1);
  const auto calls = record(d, 1, 3);
  for (int s = 0; s < d.size(); ++s) {
    int border_sweeps = 0, bulk_sweeps = 0, groups = 0;
    for (const Call& c : calls[s]) {
      if (c.kind == Call::group) {
        EXPECT_EQ(c.lane, Lane::border);
        ++groups;
      }
      if (c.kind == Call::sweep_h || c.kind == Call::sweep_e) ++(c.lane == Lane::border ? border_sweeps : bulk_sweeps);
    }
    EXPECT_EQ(groups, 2 * 3) << "one group per phase and step";
    // The lower neighbour's: E of plane b; the upper one's: H and E of plane e-1 (border_split).
    const int per_step = (s > 0 ? 1 : 0) + (s < d.size() - 1 ? 2 : 0);
    EXPECT_EQ(border_sweeps, per_step * 3) << "the border planes of each neighbour, every step";
    EXPECT_EQ(bulk_sweeps, 2 * 3);
  }
}

// One subdomain exchanges nothing: every step is the plain one (H and E over the whole range on
// the bulk lane), without marks, follows or border sweeps (1.5 us a step on one H200 at 128^3).
TEST(BorderFirstSchedule, OneSubdomainSweepsWithoutTheLanes) {
  for (Index depth : {1, 2}) {
    const SlabDecomposition d(GridShape{5, 4, 12}, 1, depth);
    const auto calls = record(d, depth, 4);
    int sweeps = 0;
    for (const Call& c : calls[0]) {
      EXPECT_NE(c.kind, Call::mark);
      EXPECT_NE(c.kind, Call::follow);
      if (c.kind != Call::sweep_h && c.kind != Call::sweep_e) continue;
      EXPECT_EQ(c.lane, Lane::bulk);
      EXPECT_EQ(c.planes, (PlaneRange{0, 12})) << "R=" << depth;
      ++sweeps;
    }
    EXPECT_EQ(sweeps, 2 * 4) << "R=" << depth;
  }
}

// The checks are not vacuous: without the marks' follows on one lane, some order goes wrong.
TEST(BorderFirstSchedule, AMissingOrderBetweenTheLanesIsCaught) {
  for (Lane lane : {Lane::bulk, Lane::border})
    for (const Case& c : {Case{24, 3, 1}, Case{24, 3, 2}}) {
      const Findings found = run_case(c, 40, [lane](Lane l) { return l == lane; });
      EXPECT_TRUE(!found.invalid_read.empty() || !found.mismatch.empty())
          << c.label() << ", follows dropped on the " << (lane == Lane::bulk ? "bulk" : "border") << " lane";
    }
}

// The same with the staged copies (the event waits alone do not order the lanes of a
// subdomain), and a receiver that copies a buffer up without waiting for its sender's event.
TEST(BorderFirstSchedule, AMissingOrderIsCaughtWithStagedCopiesToo) {
  for (Lane lane : {Lane::bulk, Lane::border}) {
    const Findings found = run_case(
        Case{24, 3, 1}, 40, [lane](Lane l) { return l == lane; }, Transport::staged_copies);
    EXPECT_TRUE(!found.invalid_read.empty() || !found.mismatch.empty())
        << "follows dropped on the " << (lane == Lane::bulk ? "bulk" : "border") << " lane";
  }
  for (const Case& c : {Case{24, 3, 1}, Case{24, 3, 2}}) {
    const Findings found = run_case(c, 40, {}, Transport::staged_without_waits);
    EXPECT_TRUE(!found.invalid_read.empty() || !found.mismatch.empty()) << c.label() << ", no waits";
  }
}

}  // namespace
}  // namespace yeex
