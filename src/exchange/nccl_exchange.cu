// nccl: halo planes moved with ncclSend/ncclRecv, one NCCL group per exchange phase; in threads
// mode and in MPI mode alike.
//
// Data path: one communicator per GPU, NCCL rank = subdomain index. Threads mode creates all of
// them at once with ncclCommInitAll; MPI mode (one rank per GPU) creates each rank's own with
// ncclCommInitRank, rank 0's ncclUniqueId broadcast over MPI. The transfers are the same. In
// each exchange phase of the halo plan (BeforeBlock for R > 1, BeforeH and BeforeE for R = 1) a
// subdomain opens one ncclGroupStart/ncclGroupEnd and, for every transfer it takes part in,
// ncclSends each component's planes straight from its owned planes or ncclRecvs them straight
// into its ghost planes (a run of whole padded planes is contiguous: planes * pitch_z elements),
// followed by the transfer's CPML psi chunks (HaloExchange::state_chunks; B+2R only).
// Schedule: the border-first one (src/exchange/border_first_exchange.hpp): each phase's group is
// issued on the subdomain's border lane (the engine's high-priority stream) right behind the
// border sweeps whose planes it sends, while the bulk lane sweeps the rest of the slab.
// Synchronisation: none on the host (no barrier, no stream synchronisation per step). NCCL
// kernels are ordered with the other work of the stream they are issued on, and a group
// completes on that stream only when its sends have been read out and its receives have landed;
// so stream order on the border lane, plus the schedule's marks between the lanes, is the whole
// protocol:
//   - a receive lands before the border sweeps behind it, the only ones that read its ghost
//     planes in that step (the bulk reads none, by the border split), and later sweeps follow
//     through the marks;
//   - a send has read its planes before the border sweeps behind it overwrite them (the bulk
//     writes none);
//   - a group starts after every earlier sweep on both lanes (the border lane follows bulk_done):
//     it sends final planes and overwrites ghost planes nobody reads any more.
// Sends and receives between two ranks match in issue order: every subdomain walks the same plan
// in the same order, so the k-th send from a to b meets the k-th receive of b from a. In threads
// mode each GPU's thread issues its own groups on its own communicator with no barrier between
// the threads; no thread waits for another on the host, so none can hold up a peer's group.
// Requirements: cuda engine, one distinct GPU per subdomain (threads mode) or rank. NVLink SHARP (NVLS, multicast) is
// switched off unless the user set NCCL_NVLS_ENABLE: it reserves GPU memory and these halo
// transfers are point to point.
#include "src/exchange/nccl_exchange.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "src/exchange/border_first_exchange.hpp"
#include "src/runtime/nccl_check.hpp"

namespace yeex {
namespace {

template <typename Real>
constexpr ncclDataType_t nccl_type() {
  return sizeof(Real) == sizeof(float) ? ncclFloat : ncclDouble;
}

template <typename Real>
class NcclExchange final : public BorderFirstExchange<Real> {
 public:
  NcclExchange(ExchangeContext<Real> context, std::string name)
      : BorderFirstExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto& engines = this->context_.engines;
    std::vector<int> devices;
    for (int s : this->context_.local) {
      if (engines[s]->device() < 0) throw std::invalid_argument("the nccl exchange needs the cuda engine");
      devices.push_back(engines[s]->device());
    }
    // Every send and receive of this process's subdomains in every phase, resolved to device
    // pointers once (before the communicators exist, so that nothing can throw after they do).
    operations_.resize(engines.size());
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase))
        for (Component c : t.components) {
          for (bool send : {true, false}) {
            const int s = send ? t.from : t.to;
            if (!engines[s]) continue;  // MPI mode: another rank's side of the transfer
            const Index k = send ? t.source.begin : t.destination.begin;
            Engine<Real>& e = *engines[s];
            operations_[s][static_cast<int>(phase)].push_back(
                {send, send ? t.to : t.from, e.field_data(c) + this->plane_offset(s, k),
                 static_cast<std::size_t>(t.source.count() * e.layout().pitch_z)});
          }
        }
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase))
        for (bool send : {true, false}) {
          const int s = send ? t.from : t.to;
          if (!engines[s]) continue;  // MPI mode: another rank's side of the transfer
          for (const StateChunk<Real>& chunk : this->state_chunks(t, s))
            operations_[s][static_cast<int>(phase)].push_back(
                {send, send ? t.to : t.from, chunk.data, static_cast<std::size_t>(chunk.count)});
        }
    comms_.assign(engines.size(), nullptr);
    // One subdomain: nothing to exchange, no communicator to set up.
    if (this->context_.decomposition->size() == 1) return;
    setenv("NCCL_NVLS_ENABLE", "0", 0);  // before NCCL reads its environment; a user's setting wins
    if (const ProcessGroup* group = this->context_.processes) {
      // MPI mode: rank r holds subdomain r, and is NCCL rank r of one communicator over the group.
      ncclUniqueId id{};
      if (group->rank() == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
      std::vector<std::byte> bytes(sizeof id);
      std::memcpy(bytes.data(), &id, sizeof id);
      group->broadcast(bytes, 0);
      std::memcpy(&id, bytes.data(), sizeof id);
      const int s = this->context_.local.front();
      YEEX_CUDA(cudaSetDevice(engines[s]->device()));
      nccl_check(ncclCommInitRank(&comms_[s], group->size(), id, group->rank()), "ncclCommInitRank");
    } else {
      nccl_check(ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
    }
  }

  ~NcclExchange() override {
    for (std::size_t s = 0; s < comms_.size(); ++s) {
      if (!comms_[s]) continue;
      cudaSetDevice(this->context_.engines[s]->device());
      ncclCommDestroy(comms_[s]);
    }
  }

  std::string name() const override { return name_; }

 protected:
  void start(int s) override { YEEX_CUDA(cudaSetDevice(this->context_.engines[s]->device())); }

  // Enqueues subdomain s's sends and receives of one phase on its border lane, as one group.
  void issue(int s, HaloPhase phase) override {
    const auto& operations = operations_[s][static_cast<int>(phase)];
    if (operations.empty()) return;
    const auto stream = static_cast<cudaStream_t>(this->context_.engines[s]->native_stream(Lane::border));
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (const Operation& op : operations) {
      if (op.send)
        nccl_check(ncclSend(op.planes, op.count, nccl_type<Real>(), op.peer, comms_[s], stream), "ncclSend");
      else
        nccl_check(ncclRecv(op.planes, op.count, nccl_type<Real>(), op.peer, comms_[s], stream), "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }

 private:
  struct Operation {
    bool send = true;
    int peer = kNoNeighbour;
    Real* planes = nullptr;  // owned planes (send) or ghost planes (receive)
    std::size_t count = 0;   // elements
  };

  std::string name_;
  std::vector<std::array<std::vector<Operation>, kHaloPhaseCount>> operations_;  // [subdomain][phase]
  std::vector<ncclComm_t> comms_;  // [subdomain] = NCCL rank; null where another process holds it
};

}  // namespace

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_nccl_exchange(ExchangeContext<Real> context, std::string name) {
  return std::make_unique<NcclExchange<Real>>(std::move(context), std::move(name));
}
template std::unique_ptr<HaloExchange<float>> make_nccl_exchange(ExchangeContext<float>, std::string);
template std::unique_ptr<HaloExchange<double>> make_nccl_exchange(ExchangeContext<double>, std::string);

}  // namespace yeex
