// The border-first schedule's transports on GPUs (copy_transports.hpp): the halo planes copied
// right behind the sweeps that computed them, on the border lane, while the bulk lane sweeps the
// rest of the slab. No host thread waits for a GPU inside the step loop.
//
// Data path. Subdomain s owns planes [b, e); L is its lower and U its upper neighbour. Each
// transfer of the halo plan is pushed by its sender: per component one copy of its run of whole
// padded planes, then its CPML psi chunks (HaloExchange::state_chunks; B+2R only). issue() pushes
// s's transfers of the phase (peer: into the receivers; staged: into the buffers) and marks them
// pushed on s's border lane (events: pushed[s][phase]; counters: the push kernel's last block);
// await() makes the border lane wait for the pushes of every transfer into s (staged: then copies
// each such buffer up, on the same lane, so what follows on it sees the planes).
//
// HALO DEPTH 1. The before-h transfer is "s pushes Ex, Ey of plane b into L's ghost plane b", the
// before-e one "s pushes Hx, Hy of plane e-1 into U's ghost plane e-1". Step n of subdomain s on
// its border lane, as the schedule and the event transports issue it:
//
//   follow bulk_done                      (step n-1 complete, its sources included)
//   push Ex, Ey of b -> L; record e_pushed
//   ----------- host barrier B: every e_pushed of step n is recorded -----------
//   wait U.e_pushed                       (E^n of plane e landed; staged: then copy it up)
//   H over plane e-1
//   push Hx, Hy of e-1 -> U; record h_pushed
//   ----------- host barrier A: every h_pushed of step n is recorded -----------
//   wait L.h_pushed                       (H of plane b-1 landed; staged: then copy it up)
//   follow bulk_h_done; E over planes b and e-1; mark border_e_done
//
// Synchronisation contract across GPUs (the schedule's header argues the rest):
//   ghost reads: H(e-1) reads the E ghost e -> waits U.e_pushed (staged: and the copy up, on the
//     same lane); E(b) reads the H ghost b-1 -> waits L.h_pushed (likewise).
//   remote overwrites (WAR), peer: my H push into U's ghost b_U-1 overwrites what U's E(b_U) of
//     step n-1 read; that sweep precedes U's e_pushed of step n on U's border lane, and my H
//     sweep, hence my push, waited for it. My E push of step n into L's ghost e_L overwrites what
//     L's H(e_L-1) of step n-1 read; that sweep precedes L's h_pushed of step n-1 on L's border
//     lane, which my border lane waited for before my E(b) of step n-1, ahead of this push.
//   staged: a receiver writes its ghost planes itself, on its border lane, which also runs every
//     sweep that reads them. What is shared is the buffer: my D2H of step n+1 overwrites what the
//     receiver's H2D of step n read, and the same chains order them: L's copy up of my E planes
//     (step n) precedes L's h_pushed of step n on L's lane, which my lane waited for before my E
//     push of step n+1; U's copy up of my H planes (step n) precedes U's e_pushed of step n+1,
//     which my lane waits for before my H push of step n+1.
// Host-side ordering: cudaStreamWaitEvent waits for the record enqueued at the time of the call,
// so a wait on a peer's event must come after the peer's record for this step and before its
// next one. The barriers give exactly that: U.e_pushed is recorded before barrier B of step n,
// waited after B and before barrier A of step n, recorded again (step n+1) after A; L.h_pushed
// is recorded before A of step n, waited after A and before B of step n+1, recorded again after
// that B.
//
// HALO DEPTH R > 1 (b2r). One phase per block: s pushes E [b, b+R) and H [b, b+R-1) to L, E and
// H [e-R, e) to U, with their psi. Its ghost planes are read by the bulk lane too, in the
// substeps after the exchange, and no event a sender waits for stands for those reads; so each
// receiver first says its ghost planes are free. At the first step of a block, on s's border lane:
//
//   follow bulk_done                      (the previous block complete)
//   record ready                          (sent planes final, ghost planes no longer read)
//   ----------- host barrier X: every ready of this block is recorded -----------
//   wait L.ready, U.ready; push to L and U; record pushed
//   ----------- host barrier Y: every pushed of this block is recorded -----------
//   wait L.pushed, U.pushed (staged: copy up); then the border sweeps
//
//   ghost reads: the border sweeps follow the waits on pushed, the bulk reads no received plane
//     (border split), and the later substeps' bulk sweeps follow the border marks.
//   remote overwrites: my push overwrites the neighbour's ghost planes (staged: its buffer from
//     me, which it copied up in the previous block) after its ready, which follows its
//     bulk_done: every read of them in the previous block (the bulk lane followed border_e_done,
//     which comes after the copies up on the border lane).
//   my sent planes: overwritten only by my border sweeps, after the push on the same lane.
//   host-side ordering: ready is recorded before X and waited between X and Y; its next record
//     comes in the next block, after Y, which no thread passes before every wait on it is
//     enqueued. pushed is recorded between X and Y and waited after Y; its next record comes
//     after the next block's X, which no thread passes before every wait on it is enqueued.
//
// COUNTERS (CounterTransport). The counters stand where the events stand above (a signal where a
// pushed or ready record is, a wait where its wait is), and as they only grow, the host barriers
// that order records before waits are not needed: a wait for the n-th signal cannot be met by an
// earlier one, and a later one implies it (a sender's next signal follows its wait for this
// receiver's, which follows the reads it would overwrite). With no event and no host barrier in
// a step, the schedule records the steps once and replays them as a CUDA graph.
//
// Marks are recorded and followed by one thread in program order. As every wait refers to work
// already enqueued, the GPUs never depend on host work not yet issued: the host may run ahead
// freely, no deadlock. start() synchronises the GPU and meets the others at a barrier, so a call
// depends on no state left by an earlier one.
#include "src/exchange/copy_transports.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"

namespace yeex {
namespace {

// The runs of one push_kernel launch: every copy one subdomain pushes in one phase. Whole padded
// planes and psi chunks; a run whose ends are 16-byte aligned moves in uint4, the others in Real.
template <typename Real>
struct PushRuns {
  static constexpr int kMaxRuns = 64;
  int count = 0;
  const Real* from[kMaxRuns] = {};
  Real* to[kMaxRuns] = {};  // another GPU's memory, through peer access
  Index elements[kMaxRuns] = {};
  bool wide[kMaxRuns] = {};  // from, to and the byte count multiples of 16
  SignalTargets signal;      // CounterTransport: the receivers' counters, signalled by the last block
};

// Block y moves run y; the blocks along x stride through it.
template <typename Real>
__global__ void push_kernel(const __grid_constant__ PushRuns<Real> runs) {
  const int r = blockIdx.y;
  const Index first = Index(blockIdx.x) * blockDim.x + threadIdx.x, stride = Index(gridDim.x) * blockDim.x;
  if (runs.wide[r]) {
    const auto* from = reinterpret_cast<const uint4*>(runs.from[r]);
    auto* to = reinterpret_cast<uint4*>(runs.to[r]);
    const Index n = runs.elements[r] * Index(sizeof(Real)) / Index(sizeof(uint4));
    for (Index e = first; e < n; e += stride) to[e] = from[e];
  } else {
    for (Index e = first; e < runs.elements[r]; e += stride) runs.to[r][e] = runs.from[r][e];
  }
  signal_when_last(runs.signal);
}

constexpr unsigned kPushBlock = 256;
// Blocks per run along x: enough to fill the links, few enough that the pushes leave the bulk
// sweep most of the GPU.
constexpr unsigned kPushBlocksPerRun = 8;

}  // namespace

template <typename Real>
void start_idle(const ExchangeContext<Real>& context, int s) {
  Engine<Real>& engine = *context.engines[s];
  YEEX_CUDA(cudaSetDevice(engine.device()));
  engine.synchronize();
  context.team->barrier();
}

template <typename Real>
void require_cuda_engines(const ExchangeContext<Real>& context, const std::string& name) {
  for (Engine<Real>* e : context.engines)
    if (e->device() < 0) throw std::invalid_argument("the " + name + " exchange needs the cuda engine");
}

// ---- HaloPushes ----

template <typename Real>
HaloPushes<Real>::HaloPushes(const HaloExchange<Real>& exchange, bool staged) {
  const ExchangeContext<Real>& context = exchange.context();
  const auto& engines = context.engines;
  pushes_.resize(engines.size());
  senders_.resize(engines.size());
  receivers_.resize(engines.size());
  const auto add = [](std::vector<int>& list, int s) {
    if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
  };
  for (HaloPhase phase : kAllHaloPhases)
    for (const HaloTransfer& t : context.plan.transfers(phase)) {
      Engine<Real>& from = *engines[t.from];
      Engine<Real>& to = *engines[t.to];
      if (!staged) enable_peer_access(from.device(), to.device());
      Push p{&t, from.device(), to.device(), {}, nullptr};
      std::size_t elements = 0;
      const auto copy = [&](const Real* source, Real* destination, std::size_t count) {
        p.copies.push_back({source, destination, count * sizeof(Real), elements});
        elements += count;
      };
      const auto count = static_cast<std::size_t>(t.source.count() * from.layout().pitch_z);
      for (Component c : t.components)
        copy(from.field_data(c) + exchange.plane_offset(t.from, t.source.begin),
             to.field_data(c) + exchange.plane_offset(t.to, t.destination.begin), count);
      const auto& out_of = exchange.state_chunks(t, t.from);
      const auto& into = exchange.state_chunks(t, t.to);
      for (std::size_t i = 0; i < into.size(); ++i)
        copy(out_of[i].data, into[i].data, static_cast<std::size_t>(into[i].count));
      if (staged) p.buffer = std::make_unique<StagingBuffer<Real>>(elements);
      pushes_[t.from][static_cast<int>(phase)].push_back(std::move(p));
      add(senders_[t.to][static_cast<int>(phase)], t.from);  // B+2R: E and H from one sender
      add(receivers_[t.from][static_cast<int>(phase)], t.to);
    }
}

// ---- PushKernel ----

template <typename Real>
struct PushKernel<Real>::Launches {
  struct Launch {
    PushRuns<Real> runs;
    dim3 grid;
  };
  std::vector<std::array<Launch, kHaloPhaseCount>> of;  // [sender][phase]
};

template <typename Real>
PushKernel<Real>::PushKernel(const HaloPushes<Real>& pushes, const std::string& name)
    : launches_(std::make_unique<Launches>()) {
  launches_->of.resize(pushes.subdomains());
  for (std::size_t s = 0; s < pushes.subdomains(); ++s)
    for (int phase = 0; phase < kHaloPhaseCount; ++phase) {
      auto& launch = launches_->of[s][phase];
      PushRuns<Real>& runs = launch.runs;
      for (const auto& p : pushes.of(static_cast<int>(s), static_cast<HaloPhase>(phase)))
        for (const auto& c : p.copies) {
          if (runs.count == PushRuns<Real>::kMaxRuns)
            throw std::invalid_argument(name + ": more than " + std::to_string(PushRuns<Real>::kMaxRuns) +
                                        " halo runs in one phase for the push kernel");
          const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
          runs.from[runs.count] = c.source;
          runs.to[runs.count] = c.destination;
          runs.elements[runs.count] = static_cast<Index>(c.bytes / sizeof(Real));
          runs.wide[runs.count] = aligned(c.source) && aligned(c.destination) && c.bytes % 16 == 0;
          ++runs.count;
        }
      launch.grid = dim3(kPushBlocksPerRun, static_cast<unsigned>(std::max(runs.count, 1)));
    }
}

template <typename Real>
PushKernel<Real>::~PushKernel() = default;

template <typename Real>
void PushKernel<Real>::signal(int s, int phase, const SignalTargets& targets) {
  launches_->of[s][phase].runs.signal = targets;
}

template <typename Real>
void PushKernel<Real>::launch(int s, HaloPhase phase, int device, cudaStream_t stream) const {
  const auto& launch = launches_->of[s][static_cast<int>(phase)];
  YEEX_CUDA(cudaSetDevice(device));
  push_kernel<Real><<<launch.grid, kPushBlock, 0, stream>>>(launch.runs);
  YEEX_CUDA(cudaGetLastError());
}

// ---- EventOrder ----

template <typename Real>
EventOrder<Real>::EventOrder(const ExchangeContext<Real>& context, const HaloPushes<Real>& pushes)
    : context_(context), pushes_(pushes), pushed_(context.engines.size()) {
  for (std::size_t s = 0; s < context.engines.size(); ++s)
    for (int phase = 0; phase < kHaloPhaseCount; ++phase)
      if (!pushes.of(static_cast<int>(s), static_cast<HaloPhase>(phase)).empty())
        pushed_[s][phase] = make_event(context.engines[s]->device());
  // R = 1 needs no ready: the events of the other phase stand for the ghost reads.
  if (context.plan.halo_depth > 1)
    for (Engine<Real>* e : context.engines) ready_.push_back(make_event(e->device()));
}

template <typename Real>
void EventOrder<Real>::ready(int s, HaloPhase phase, cudaStream_t stream) {
  if (ready_.empty()) return;
  record(ready_[s], stream);
  context_.team->barrier();  // every ready of this block recorded
  for (const auto& p : pushes_.of(s, phase)) wait(stream, ready_[p.transfer->to]);
}

template <typename Real>
void EventOrder<Real>::pushed(int s, HaloPhase phase, cudaStream_t stream) const {
  record(pushed_[s][static_cast<int>(phase)], stream);
}

template <typename Real>
void EventOrder<Real>::wait_pushed(int sender, HaloPhase phase, cudaStream_t stream) const {
  wait(stream, pushed_[sender][static_cast<int>(phase)]);
}

// ---- PeerTransport ----

template <typename Real>
PeerTransport<Real>::PeerTransport(const HaloExchange<Real>& exchange, const std::string& name)
    : context_((require_cuda_engines(exchange.context(), name), exchange.context())),
      pushes_(exchange, false),
      order_(context_, pushes_) {
  using PeerPush = ExchangeOptions::PeerPush;
  const PeerPush push = context_.options.peer_push;
  if (push == PeerPush::automatic ? context_.plan.halo_depth > 1 : push == PeerPush::kernel)
    kernel_ = std::make_unique<PushKernel<Real>>(pushes_, name);
}

template <typename Real>
void PeerTransport<Real>::issue(int s, HaloPhase phase) {
  const cudaStream_t stream = border_stream(context_, s);
  order_.ready(s, phase, stream);
  const auto& pushes = pushes_.of(s, phase);
  if (pushes.empty()) return;
  if (kernel_) {
    kernel_->launch(s, phase, context_.engines[s]->device(), stream);
  } else {
    for (const auto& p : pushes)
      for (const auto& c : p.copies)
        YEEX_CUDA(cudaMemcpyPeerAsync(c.destination, p.to_device, c.source, p.from_device, c.bytes, stream));
  }
  order_.pushed(s, phase, stream);
}

template <typename Real>
void PeerTransport<Real>::await(int s, HaloPhase phase) {
  // Every push of this phase and step recorded (and every wait on the previous one enqueued).
  context_.team->barrier();
  const cudaStream_t stream = border_stream(context_, s);
  for (const HaloTransfer& t : context_.plan.transfers(phase))
    if (t.to == s) order_.wait_pushed(t.from, phase, stream);
}

// ---- StagedTransport ----

template <typename Real>
StagedTransport<Real>::StagedTransport(const HaloExchange<Real>& exchange, const std::string& name)
    : context_((require_cuda_engines(exchange.context(), name), exchange.context())),
      pushes_(exchange, true),
      order_(context_, pushes_) {}

template <typename Real>
void StagedTransport<Real>::issue(int s, HaloPhase phase) {
  const cudaStream_t stream = border_stream(context_, s);
  order_.ready(s, phase, stream);
  const auto& pushes = pushes_.of(s, phase);
  if (pushes.empty()) return;
  for (const auto& p : pushes)  // down into the buffers
    for (const auto& c : p.copies)
      YEEX_CUDA(cudaMemcpyAsync(p.buffer->data() + c.staged_at, c.source, c.bytes, cudaMemcpyDeviceToHost, stream));
  order_.pushed(s, phase, stream);
}

template <typename Real>
void StagedTransport<Real>::await(int s, HaloPhase phase) {
  // Every push of this phase and step recorded (and every wait on the previous one enqueued).
  context_.team->barrier();
  const cudaStream_t stream = border_stream(context_, s);
  for (const HaloTransfer& t : context_.plan.transfers(phase)) {
    if (t.to != s) continue;
    order_.wait_pushed(t.from, phase, stream);
    for (const auto& p : pushes_.of(t.from, phase))
      if (p.transfer == &t)             // a sender may have two transfers to s in a phase (B+2R: E and H)
        for (const auto& c : p.copies)  // up into the ghost planes
          YEEX_CUDA(
              cudaMemcpyAsync(c.destination, p.buffer->data() + c.staged_at, c.bytes, cudaMemcpyHostToDevice, stream));
  }
}

// ---- CounterTransport ----

template <typename Real>
CounterTransport<Real>::CounterTransport(const HaloExchange<Real>& exchange, const std::string& name)
    : context_((require_cuda_engines(exchange.context(), name), exchange.context())),
      name_(name),
      pushes_(exchange, false),
      kernel_(pushes_, name) {
  std::vector<int> devices;
  for (Engine<Real>* e : context_.engines) devices.push_back(e->device());
  flags_ = std::make_unique<PeerFlags>(devices);
  for (std::size_t s = 0; s < context_.engines.size(); ++s)  // the push kernel signals its receivers
    for (int phase = 0; phase < kHaloPhaseCount; ++phase)
      kernel_.signal(static_cast<int>(s), phase,
                     flags_->targets(static_cast<int>(s), pushes_.receivers(static_cast<int>(s), phase), phase));
}

// With R > 1 first "ready" to the senders into s and from the receivers of s (EventOrder's ready
// record and waits, without the barrier), then the push kernel, whose last block signals its
// receivers (EventOrder's pushed record).
template <typename Real>
void CounterTransport<Real>::issue(int s, HaloPhase phase, cudaStream_t stream) {
  const int p = static_cast<int>(phase);
  if (context_.plan.halo_depth > 1) {
    flags_->signal(s, pushes_.senders(s, p), PeerFlags::kReady, stream);
    flags_->wait(s, pushes_.receivers(s, p), PeerFlags::kReady, stream);
  }
  if (pushes_.of(s, phase).empty()) return;
  kernel_.launch(s, phase, context_.engines[s]->device(), stream);  // its last block signals
}

template <typename Real>
void CounterTransport<Real>::await(int s, HaloPhase phase, cudaStream_t stream) const {
  flags_->wait(s, pushes_.senders(s, static_cast<int>(phase)), static_cast<int>(phase), stream);
}

template <typename Real>
void CounterTransport<Real>::finish(int s) const {
  context_.engines[s]->synchronize();
  if (const std::string why = flags_->failure(s); !why.empty()) throw std::runtime_error(name_ + ": " + why);
}

#define YEEX_INSTANTIATE(Real)                                                                \
  template void start_idle<Real>(const ExchangeContext<Real>&, int);                          \
  template void require_cuda_engines<Real>(const ExchangeContext<Real>&, const std::string&); \
  template class HaloPushes<Real>;                                                            \
  template class PushKernel<Real>;                                                            \
  template class EventOrder<Real>;                                                            \
  template class PeerTransport<Real>;                                                         \
  template class StagedTransport<Real>;                                                       \
  template class CounterTransport<Real>;
YEEX_INSTANTIATE(float)
YEEX_INSTANTIATE(double)
#undef YEEX_INSTANTIATE

}  // namespace yeex
