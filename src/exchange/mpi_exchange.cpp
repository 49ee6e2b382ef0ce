// mpi: halo planes between ranks with MPI_Isend/MPI_Irecv (MPI mode: rank r holds subdomain r).
//
// Data path: one message per transfer and component: the component's run of whole padded planes,
// contiguous in the field array (planes * pitch_z elements), so nothing is packed by hand.
//   - host engine: sent straight from the owned planes, received straight into the ghost planes;
//   - cuda engine, MPI library CUDA-aware (MPIX_Query_cuda_support): the same, device pointers;
//   - cuda engine otherwise: staged through pinned host buffers, one per transfer (device ->
//     pinned buffer -> MPI -> pinned buffer -> device). Open MPI as Debian and Ubuntu ship it is
//     not CUDA-aware, so this is the path that runs there.
// Synchronisation: SynchronousExchange's step loop; its barriers are this rank's team of one
// thread, so they cost nothing. The engine is synchronised before a phase (sends read final
// planes; receives overwrite ghost planes no sweep still reads). In a phase a rank posts its
// receives, then its sends, and waits for all of them before its next sweep: a received plane
// has landed before it is read, and a sent plane has been read out before the sweep that
// overwrites it. No barrier: neighbours meet through their messages alone.
// CPML: the psi values of a B+2R transfer's planes (HaloExchange::state_chunks) travel as one more
// message per transfer, packed into a host buffer (read_memory / write_memory of the engine).
// Matching: the tag is (phase, component), or (phase, psi); between two ranks a phase has at most
// one transfer each way, so (source rank, tag) names one message.
// Requirements: MPI mode, one subdomain per rank; any engine; any halo depth.
#include "src/exchange/mpi_exchange.hpp"

#include <climits>
#include <stdexcept>
#include <vector>

#include "src/exchange/staging_buffer.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/mpi_process_group.hpp"

namespace yeex {
namespace {

template <typename Real>
MPI_Datatype mpi_type() {
  return sizeof(Real) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
}

template <typename Real>
class MpiExchange final : public SynchronousExchange<Real> {
 public:
  MpiExchange(ExchangeContext<Real> context, std::string name)
      : SynchronousExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto* group = dynamic_cast<const MpiProcessGroup*>(this->context_.processes);
    if (!group) throw std::invalid_argument("the mpi exchange runs in MPI mode only (start yeex with mpirun)");
    if (this->context_.local.size() != 1) throw std::invalid_argument("the mpi exchange needs one subdomain per rank");
    comm_ = group->communicator();
    const int s = this->context_.local.front();
    Engine<Real>& engine = *this->context_.engines[s];
    direct_ = engine.device() < 0 || mpi_cuda_aware();
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
        psi_buffers_.emplace_back(count);
        psi_messages_[static_cast<int>(phase)].push_back({t.from == s, t.from == s ? t.to : t.from,
                                                          kPsiTag + static_cast<int>(phase), &chunks,
                                                          static_cast<int>(count), psi_buffers_.back().data()});
      }
    requests_.reserve(2 * kComponentCount * 2 + 4);
  }

  std::string name() const override { return name_; }

 protected:
  void transfer(int s, HaloPhase phase) override {
    const auto& messages = messages_[static_cast<int>(phase)];
    const auto& psi = psi_messages_[static_cast<int>(phase)];
    if (messages.empty()) return;
    Engine<Real>& engine = *this->context_.engines[s];
    requests_.clear();
    for (const Message& m : messages) {
      if (m.send) continue;
      requests_.emplace_back();
      mpi_check(MPI_Irecv(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests_.back()), "MPI_Irecv");
    }
    for (const PsiMessage& m : psi) {
      if (m.send) continue;
      requests_.emplace_back();
      mpi_check(MPI_Irecv(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests_.back()), "MPI_Irecv");
    }
    for (const PsiMessage& m : psi) {
      if (!m.send) continue;
      this->pack_state(engine, *m.chunks, m.buffer);
      requests_.emplace_back();
      mpi_check(MPI_Isend(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests_.back()), "MPI_Isend");
    }
    for (const Message& m : messages) {
      if (!m.send) continue;
      if (!direct_) engine.copy_out(m.component, m.offset, m.count, m.buffer);
      requests_.emplace_back();
      mpi_check(MPI_Isend(m.buffer, m.count, mpi_type<Real>(), m.peer, m.tag, comm_, &requests_.back()), "MPI_Isend");
    }
    mpi_check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (const PsiMessage& m : psi) {
      if (m.send) continue;
      this->unpack_state(engine, *m.chunks, m.buffer);
    }
    if (direct_) return;
    for (const Message& m : messages)
      if (!m.send) engine.copy_in(m.component, m.offset, m.count, m.buffer);
  }

 private:
  struct Message {
    bool send = true;
    int peer = kNoNeighbour;  // rank = subdomain
    int tag = 0;
    Component component = Component::Ex;
    Index offset = 0;        // first element of the planes in the field array
    int count = 0;           // elements
    Real* buffer = nullptr;  // the planes themselves (direct) or their place in a staging buffer
  };

  // The CPML psi of one B+2R transfer, packed in a host buffer.
  struct PsiMessage {
    bool send = true;
    int peer = kNoNeighbour;
    int tag = 0;
    const std::vector<StateChunk<Real>>* chunks = nullptr;  // HaloExchange::state_chunks, kept by the base
    int count = 0;
    Real* buffer = nullptr;
  };
  static constexpr int kPsiTag = kHaloPhaseCount * kComponentCount;  // + phase

  std::string name_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool direct_ = true;
  std::array<std::vector<Message>, kHaloPhaseCount> messages_;
  std::vector<StagingBuffer<Real>> staging_;
  std::array<std::vector<PsiMessage>, kHaloPhaseCount> psi_messages_;
  std::vector<StagingBuffer<Real>> psi_buffers_;
  std::vector<MPI_Request> requests_;
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_mpi_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<MpiExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_mpi_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_mpi_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
