// mpi: halo planes between ranks with MPI_Isend/MPI_Irecv (MPI mode: rank r holds subdomain r),
// in flight while the bulk sweeps.
//
// Step loop: the border-first schedule (border_first_exchange.hpp), written once there, in its
// order for a transport that waits on the host (awaits_on_host): a phase's messages are posted
// right behind the border sweeps whose planes they send, the bulk sweep runs, and only then does
// the host wait for them, before the border sweeps that read the ghost planes.
// Data path: one message per transfer and component: the component's run of whole padded planes,
// contiguous in the field array (planes * pitch_z elements), so nothing is packed by hand.
//   - host engine: sent straight from the owned planes, received straight into the ghost planes;
//   - cuda engine, MPI library CUDA-aware (MPIX_Query_cuda_support): the same, device pointers;
//   - cuda engine otherwise: staged through pinned host buffers, one per transfer (device ->
//     pinned buffer -> MPI -> pinned buffer -> device). Open MPI as Debian and Ubuntu ship it is
//     not CUDA-aware, so this is the path that runs there.
// Synchronisation: issue() waits for the engine (Engine::synchronize: the border sweeps behind
// which the phase stands, and every earlier sweep), then posts the phase's receives and its
// sends: sends read final planes, receives overwrite ghost planes no sweep still reads. While
// they are in flight the bulk sweeps, which by the border split reads no plane the phase
// receives and writes none it sends. await() waits for all of them (MPI_Waitall) and copies the
// staged planes up: a received plane has landed before a sweep reads it, and a sent plane has
// been read out before the border sweep that overwrites it. No barrier: neighbours meet through
// their messages alone.
// Progress: Open MPI moves a message larger than its eager limit only inside MPI calls, and the
// host engine sweeps on the calling thread; so the schedule cuts the bulk sweep into slices on the
// host engine (kHostSlices) and this transport calls MPI_Testall on the messages in flight after
// each slice (and after the one launch of the bulk on a GPU, where the host then sits in
// MPI_Waitall while the GPU sweeps).
// CPML and dispersive materials: the state of a B+2R transfer's planes (HaloExchange::state_chunks)
// travels as one more message per transfer, packed into a host buffer (read_memory / write_memory).
// Matching: the tag is (phase, component), or (phase, state); between two ranks a phase has at
// most one transfer each way, and a phase's messages complete before the same phase of the next
// step posts, so (source rank, tag) names one message.
// Requirements: MPI mode, one subdomain per rank; any engine; any halo depth. times(): the host's
// time posting and waiting (exchange), of which the bulk sweep hides a part on GPUs.
#include "src/exchange/mpi_exchange.hpp"

#include <array>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/exchange/border_first_exchange.hpp"
#include "src/exchange/staging_buffer.hpp"
#include "src/runtime/clock.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/mpi_process_group.hpp"

namespace yeex {
namespace {

template <typename Real>
MPI_Datatype mpi_type() {
  return sizeof(Real) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
}

template <typename Real>
class MpiExchange final : public BorderFirstExchange<Real> {
 public:
  MpiExchange(ExchangeContext<Real> context, std::string name)
      : BorderFirstExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto* group = dynamic_cast<const MpiProcessGroup*>(this->context_.processes);
    if (!group) throw std::invalid_argument("the mpi exchange runs in MPI mode only (start yeex with mpirun)");
    if (this->context_.local.size() != 1) throw std::invalid_argument("the mpi exchange needs one subdomain per rank");
    comm_ = group->communicator();
    const int s = this->context_.local.front();
    Engine<Real>& engine = *this->context_.engines[s];
    direct_ = engine.device() < 0 || mpi_cuda_aware();
    slices_ = engine.device() < 0 ? kHostSlices : 1;
    const Index plane = engine.layout().pitch_z;
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase)) {
        if (t.from != s && t.to != s) continue;
        const bool send = t.from == s;
        const Index count = t.source.count() * plane;
        if (count > INT_MAX) throw std::invalid_argument("the mpi exchange: a halo message exceeds 2^31 elements");
        Real* staged = nullptr;
        if (!direct_) {
          staging_.emplace_back(t.components.size() * count);
          staged = staging_.back().data();
        }
        for (std::size_t i = 0; i < t.components.size(); ++i) {
          const Component c = t.components[i];
          const Index offset = this->plane_offset(s, send ? t.source.begin : t.destination.begin);
          messages_[static_cast<int>(phase)].push_back(
              {send, send ? t.to : t.from, static_cast<int>(phase) * kComponentCount + static_cast<int>(c), c, offset,
               static_cast<int>(count), direct_ ? engine.field_data(c) + offset : staged + i * count});
        }
      }
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase)) {
        if (t.from != s && t.to != s) continue;
        const std::vector<StateChunk<Real>>& chunks = this->state_chunks(t, s);
        const Index count = this->state_elements(chunks);
        if (count == 0) continue;
        if (count > INT_MAX) throw std::invalid_argument("the mpi exchange: a CPML halo message exceeds 2^31 elements");
        state_buffers_.emplace_back(count);
        state_messages_[static_cast<int>(phase)].push_back({t.from == s, t.from == s ? t.to : t.from,
                                                            kStateTag + static_cast<int>(phase), &chunks,
                                                            static_cast<int>(count), state_buffers_.back().data()});
      }
    for (HaloPhase phase : kAllHaloPhases) {
      const auto p = static_cast<std::size_t>(phase);
      requests_[p].reserve(messages_[p].size() + state_messages_[p].size());
    }
  }

  std::string name() const override { return name_; }

 protected:
  bool awaits_on_host() const override { return true; }
  int bulk_slices(int) const override { return slices_; }

  // Posts subdomain s's receives and sends of one phase (see Synchronisation in the header).
  void issue(int s, HaloPhase phase) override {
    const auto p = static_cast<std::size_t>(phase);
    if (messages_[p].empty()) return;
    const auto t0 = Clock::now();
    Engine<Real>& engine = *this->context_.engines[s];
    engine.synchronize();  // the border sweeps before this point, and all earlier work
    std::vector<MPI_Request>& requests = requests_[p];
    requests.clear();
    // Post the receives, then pack and send.
    for (const Message& m : messages_[p]) {
      if (m.send) continue;
      requests.emplace_back();
      mpi_check(MPI_Irecv(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests.back()), "MPI_Irecv");
    }
    for (const StateMessage& m : state_messages_[p]) {
      if (m.send) continue;
      requests.emplace_back();
      mpi_check(MPI_Irecv(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests.back()), "MPI_Irecv");
    }
    for (const StateMessage& m : state_messages_[p]) {
      if (!m.send) continue;
      this->pack_state(engine, *m.chunks, m.buffer);
      requests.emplace_back();
      mpi_check(MPI_Isend(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests.back()), "MPI_Isend");
    }
    for (const Message& m : messages_[p]) {
      if (!m.send) continue;
      if (!direct_) engine.copy_out(m.component, m.offset, m.count, m.buffer);
      requests.emplace_back();
      mpi_check(MPI_Isend(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests.back()), "MPI_Isend");
    }
    this->times_[s].exchange += seconds_since(t0);
  }

  // Moves the messages in flight along (after each slice of a bulk sweep).
  void progress(int s) override {
    const auto t0 = Clock::now();
    for (std::vector<MPI_Request>& requests : requests_) {
      if (requests.empty()) continue;
      int done = 0;
      mpi_check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE),
                "MPI_Testall");
    }
    this->times_[s].exchange += seconds_since(t0);
  }

  // Waits for the phase's messages, then unpacks: the ghost planes and their state are in place.
  void await(int s, HaloPhase phase) override {
    const auto p = static_cast<std::size_t>(phase);
    std::vector<MPI_Request>& requests = requests_[p];
    if (requests.empty()) return;
    const auto t0 = Clock::now();
    mpi_check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    requests.clear();
    Engine<Real>& engine = *this->context_.engines[s];
    for (const StateMessage& m : state_messages_[p])
      if (!m.send) this->unpack_state(engine, *m.chunks, m.buffer);
    if (!direct_)
      for (const Message& m : messages_[p])
        if (!m.send) engine.copy_in(m.component, m.offset, m.count, m.buffer);
    this->times_[s].exchange += seconds_since(t0);
  }

 private:
  // Slices of a bulk sweep on the host engine, with MPI_Testall between them: enough that a
  // rendezvous message starts moving early in the sweep, few enough that the sweep's parallel
  // loops stay long (docs/backends.md#mpi).
  static constexpr int kHostSlices = 4;

  struct Message {
    bool send = true;
    int peer = kNoNeighbour;  // rank = subdomain
    int tag = 0;
    Component component = Component::Ex;
    Index offset = 0;        // first element of the planes in the field array
    int count = 0;           // elements
    Real* buffer = nullptr;  // the planes themselves (direct) or their place in a staging buffer
  };

  // The CPML psi and pole state of one B+2R transfer, packed in a host buffer.
  struct StateMessage {
    bool send = true;
    int peer = kNoNeighbour;
    int tag = 0;
    const std::vector<StateChunk<Real>>* chunks = nullptr;  // HaloExchange::state_chunks, kept by the base
    int count = 0;
    Real* buffer = nullptr;
  };
  static constexpr int kStateTag = kHaloPhaseCount * kComponentCount;  // + phase

  std::string name_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool direct_ = true;
  int slices_ = 1;
  std::array<std::vector<Message>, kHaloPhaseCount> messages_;
  std::vector<StagingBuffer<Real>> staging_;
  std::array<std::vector<StateMessage>, kHaloPhaseCount> state_messages_;
  std::vector<StagingBuffer<Real>> state_buffers_;
  std::array<std::vector<MPI_Request>, kHaloPhaseCount> requests_;  // [phase]: in flight
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_mpi_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<MpiExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_mpi_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_mpi_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
