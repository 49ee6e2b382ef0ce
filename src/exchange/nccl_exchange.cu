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
// followed by the transfer's CPML psi chunks (HaloExchange::psi_chunks; B+2R only).
// Synchronisation: none on the host (no barrier, no stream synchronisation per step). All of a
// subdomain's work (sweeps, sources, probes, NCCL kernels) goes to its engine's bulk stream, and
// stream order is the whole protocol:
//   - a receive completes only when its planes have landed, and the receiver's next sweep is
//     ordered after it on the same stream;
//   - a send completes only once NCCL has read its planes out (into the receiver's buffer), and
//     the sender's next sweep, which overwrites them, is ordered after it; so a plane is never
//     overwritten before it has been read;
//   - a receive overwrites ghost planes only after the receiver's earlier sweeps that read them.
// Sends and receives between two ranks match in issue order: every subdomain walks the same plan
// in the same order, so the k-th send from a to b meets the k-th receive of b from a.
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
#include "src/runtime/nccl_check.hpp"

namespace yeex {
namespace {

template <typename Real>
constexpr ncclDataType_t nccl_type() {
  return sizeof(Real) == sizeof(float) ? ncclFloat : ncclDouble;
}

template <typename Real>
class NcclExchange final : public HaloExchange<Real> {
 public:
  NcclExchange(ExchangeContext<Real> context, std::string name)
      : HaloExchange<Real>(std::move(context)), name_(std::move(name)) {
    const auto& engines = this->context_.engines;
    std::vector<int> devices;
    for (int s : this->context_.local) {
      if (engines[s]->device() < 0) throw std::invalid_argument("the nccl exchange needs the cuda engine");
      devices.push_back(engines[s]->device());
    }
    // Every send and receive of this process's subdomains in every phase, resolved to device
    // pointers once (before the communicators exist, so that nothing can throw after they do).
    const auto& d = *this->context_.decomposition;
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
                {send, send ? t.to : t.from, e.field_data(c) + e.layout().plane_offset(d.local_k(s, k)),
                 static_cast<std::size_t>(t.source.count() * e.layout().pitch_z)});
          }
        }
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : this->context_.plan.transfers(phase))
        for (bool send : {true, false}) {
          const int s = send ? t.from : t.to;
          if (!engines[s]) continue;  // MPI mode: another rank's side of the transfer
          for (const CpmlChunk<Real>& chunk : this->psi_chunks(t, s))
            operations_[s][static_cast<int>(phase)].push_back(
                {send, send ? t.to : t.from, chunk.data, static_cast<std::size_t>(chunk.count)});
        }
    comms_.assign(engines.size(), nullptr);
    if (d.size() == 1) return;  // one subdomain: nothing to exchange, no communicator to set up
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

  // The halo plan's step loop with every phase in stream order (see the header comment).
  void advance(int s, Index first, Index count) override {
    YEEX_CUDA(cudaSetDevice(this->context_.engines[s]->device()));
    this->plan_steps(s, first, count, [&](HaloPhase phase) { exchange(s, phase); });
  }

 private:
  struct Operation {
    bool send = true;
    int peer = kNoNeighbour;
    Real* planes = nullptr;  // owned planes (send) or ghost planes (receive)
    std::size_t count = 0;   // elements
  };

  // Enqueues subdomain s's sends and receives of one phase on its bulk stream, as one group.
  void exchange(int s, HaloPhase phase) {
    const auto& operations = operations_[s][static_cast<int>(phase)];
    if (operations.empty()) return;
    const auto stream = static_cast<cudaStream_t>(this->context_.engines[s]->native_stream(Lane::bulk));
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (const Operation& op : operations) {
      if (op.send)
        nccl_check(ncclSend(op.planes, op.count, nccl_type<Real>(), op.peer, comms_[s], stream), "ncclSend");
      else
        nccl_check(ncclRecv(op.planes, op.count, nccl_type<Real>(), op.peer, comms_[s], stream), "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }

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
