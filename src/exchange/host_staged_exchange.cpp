// host-staged: every halo plane goes device -> pinned host buffer -> device (on the host engine:
// owned plane -> staging buffer -> ghost plane). The path that works everywhere: no peer access,
// no NCCL.
//
// Data path: per transfer one staging buffer holding its field planes, component after component,
// then the CPML psi of B+2R transfers (HaloExchange::psi_chunks). It is filled and emptied in
// stages: each component's run of planes cut into a few pieces (see pieces_per_run), one stage
// each, and the psi chunks as one stage more.
//   cuda engine, pipelined: the sender copies each stage into the buffer (D2H) on a stream of its
//   own for this transfer and records the stage's event; the receiver's stream for this transfer
//   waits for that event (cudaStreamWaitEvent across GPUs) and copies the stage into its ghost
//   planes (H2D). No host thread waits between a D2H and its H2D, so the H2D of stage p runs
//   while stage p+1 comes down; and as every transfer has its own stream on each side, a GPU's
//   D2H and H2D (one copy engine each way) and its transfers to and from both neighbours overlap.
//   host engine: the sender copies the stages into the buffer, the receiver out of it.
// Synchronisation: SynchronousExchange's step loop without the barrier before the transfers
// (transfers_touch_neighbours): each subdomain reads its own owned planes and writes its own ghost
// planes, from its own thread or its own streams after its engine synchronised, so only the
// buffers are shared. In a phase each thread issues its sends, meets the others (every event of
// the phase is recorded, every host-engine copy into a buffer done), issues its receives and
// waits for all its streams: the phase's halos are in place when transfer() returns, as for every
// synchronous backend. The closing barrier tells each sender that its buffers have been read
// before the same phase of the next step fills them again. cudaStreamWaitEvent waits for the
// record enqueued before the call: the middle barrier puts every wait after this step's record,
// the closing one before the next step's.
// Requirements: none.
#include "src/exchange/host_staged_exchange.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/exchange/staging_buffer.hpp"
#if YEEX_HAVE_CUDA
#include "src/exchange/cuda_handles.hpp"
#endif

namespace yeex {
namespace {

// Pieces per component run of planes (the field planes of one component in one transfer). Two:
// at 512^2 a depth-1 transfer moves two components of ~1 MB, so four pieces of ~0.5 MB (~10 us
// each at the ~55 GB/s of pinned copies); what stays exposed beyond the D2H of the whole transfer
// is the H2D of the last piece, a quarter of it. Each piece more saves less (the tail shrinks by
// a few us) than it costs: a copy and an event to issue on the host (a few us, which must stay
// ahead of the copy engine) and to start on the engine. Runs under two pieces of 64 KiB are cut
// less (a smaller copy is mostly fixed cost), so small grids keep one copy per component.
// YEEX_STAGED_CHUNKS=N (1..64) cuts every run into N pieces whatever its size: for tuning, and
// for tests, whose planes are small.
constexpr Index kDefaultPieces = 2;
constexpr std::size_t kMinPieceBytes = std::size_t{64} << 10;

Index pieces_per_run(Index elements, std::size_t element_size) {
  if (const char* env = std::getenv("YEEX_STAGED_CHUNKS")) {
    const int n = std::atoi(env);
    if (n >= 1 && n <= 64) return std::clamp<Index>(n, 1, std::max<Index>(elements, 1));
  }
  const auto fitting = static_cast<Index>(static_cast<std::size_t>(elements) * element_size / kMinPieceBytes);
  return std::clamp<Index>(fitting, 1, kDefaultPieces);
}

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
      if (r.transfer->from == s) send(r, engine);
    this->meet(s);  // every stage is in its buffer, or its D2H issued and its event recorded
    for (Route& r : routes)
      if (r.transfer->to == s) receive(r, engine);
#if YEEX_HAVE_CUDA
    for (Route& r : routes) {  // halos in place, and my planes read out, before the next sweep
      if (!r.pipelined) continue;
      if (r.transfer->to == s) YEEX_CUDA(cudaStreamSynchronize(r.receive_stream.get()));
      if (r.transfer->from == s) YEEX_CUDA(cudaStreamSynchronize(r.send_stream.get()));
    }
#endif
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
    Route(const HaloTransfer& t, std::vector<std::vector<Piece>> pieces, Index elements)
        : transfer(&t), buffer(static_cast<std::size_t>(elements)), stages(std::move(pieces)) {}
    const HaloTransfer* transfer;
    StagingBuffer<Real> buffer;
    std::vector<std::vector<Piece>> stages;  // in buffer order; the receiver takes each as soon as it is down
    bool pipelined = false;                  // both ends are cuda engines: async copies on the streams below
#if YEEX_HAVE_CUDA
    Stream send_stream, receive_stream;  // on the sender's and on the receiver's GPU
    std::vector<Event> staged;           // [stage] on the sender's GPU: the stage is in the buffer
#endif
  };

  Route make_route(const HaloTransfer& t) {
    Engine<Real>& from = *this->context_.engines[t.from];
    Engine<Real>& to = *this->context_.engines[t.to];
    std::vector<std::vector<Piece>> stages;
    Index offset = 0;
    const Index run = t.source.count() * from.layout().pitch_z;  // elements per component
    const Index pieces = pieces_per_run(run, sizeof(Real));
    for (Component c : t.components) {
      const Real* source = from.field_data(c) + this->plane_offset(t.from, t.source.begin);
      Real* destination = to.field_data(c) + this->plane_offset(t.to, t.destination.begin);
      for (Index p = 0; p < pieces; ++p) {
        const Index begin = run * p / pieces, end = run * (p + 1) / pieces;
        stages.push_back({{source + begin, destination + begin, offset + begin, end - begin}});
      }
      offset += run;
    }
    const auto& psi_out = this->psi_chunks(t, t.from);  // matches psi_in entry by entry
    const auto& psi_in = this->psi_chunks(t, t.to);
    if (!psi_out.empty()) {
      stages.emplace_back();
      for (std::size_t i = 0; i < psi_out.size(); ++i) {
        stages.back().push_back({psi_out[i].data, psi_in[i].data, offset, psi_out[i].count});
        offset += psi_out[i].count;
      }
    }
    Route route(t, std::move(stages), offset);
#if YEEX_HAVE_CUDA
    route.pipelined = from.device() >= 0 && to.device() >= 0;
    if (route.pipelined) {
      route.send_stream = make_stream(from.device());
      route.receive_stream = make_stream(to.device());
      for (std::size_t i = 0; i < route.stages.size(); ++i) route.staged.push_back(make_event(from.device()));
    }
#endif
    return route;
  }

  static void send(Route& r, Engine<Real>& engine) {
    Real* buffer = r.buffer.data();
    if (!r.pipelined) {
      for (const auto& stage : r.stages)
        for (const Piece& p : stage) engine.read_memory(p.source, p.count, buffer + p.offset);
      return;
    }
#if YEEX_HAVE_CUDA
    YEEX_CUDA(cudaSetDevice(engine.device()));
    for (std::size_t i = 0; i < r.stages.size(); ++i) {
      for (const Piece& p : r.stages[i])
        YEEX_CUDA(cudaMemcpyAsync(buffer + p.offset, p.source, p.count * sizeof(Real), cudaMemcpyDeviceToHost,
                                  r.send_stream.get()));
      record(r.staged[i], r.send_stream.get());
    }
#endif
  }

  static void receive(Route& r, Engine<Real>& engine) {
    const Real* buffer = r.buffer.data();
    if (!r.pipelined) {
      for (const auto& stage : r.stages)
        for (const Piece& p : stage) engine.write_memory(p.destination, p.count, buffer + p.offset);
      return;
    }
#if YEEX_HAVE_CUDA
    YEEX_CUDA(cudaSetDevice(engine.device()));
    for (std::size_t i = 0; i < r.stages.size(); ++i) {
      wait(r.receive_stream.get(), r.staged[i]);
      for (const Piece& p : r.stages[i])
        YEEX_CUDA(cudaMemcpyAsync(p.destination, buffer + p.offset, p.count * sizeof(Real), cudaMemcpyHostToDevice,
                                  r.receive_stream.get()));
    }
#endif
  }

  std::string name_;
  std::array<std::vector<Route>, kHaloPhaseCount> routes_;  // [phase][transfer index in the plan]
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_host_staged_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<HostStagedExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_host_staged_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_host_staged_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
