#include "src/p2p/nccl_harness.hpp"

#include <cstdlib>
#include <map>
#include <memory>

#include "src/runtime/nccl_check.hpp"

namespace yeex::p2p {

NcclCommunicators::NcclCommunicators(const Machine& machine) : comms_(machine.gpu_count()) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // before NCCL reads its environment; a user's setting wins
  std::vector<int> devices;
  for (std::size_t i = 0; i < machine.gpu_count(); ++i) devices.push_back(machine.device(i));
  nccl_check(ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
}

NcclCommunicators::~NcclCommunicators() {
  for (ncclComm_t c : comms_)
    if (c) ncclCommDestroy(c);
}

double nccl_round_seconds(const Machine& machine, const NcclCommunicators& comms,
                          const std::vector<NcclTransfer>& transfers, std::size_t bytes, int batch, int repeats) {
  std::map<int, std::unique_ptr<Stream>> streams;  // by rank
  std::vector<std::unique_ptr<DeviceBuffer>> sent, received;
  for (const auto& [from, to] : transfers) {
    for (int rank : {from, to})
      if (!streams.count(rank)) streams[rank] = std::make_unique<Stream>(machine.device(rank));
    sent.push_back(std::make_unique<DeviceBuffer>(machine.device(from), bytes));
    received.push_back(std::make_unique<DeviceBuffer>(machine.device(to), bytes));
  }
  const Stream& clock = *streams.at(transfers.front().first);
  // Each transfer carries its own pattern, so a receive from the wrong rank fails the check.
  const auto pattern = [](int repeat, std::size_t t) { return repeat * 1024 + static_cast<int>(t); };
  const double seconds = median_seconds(
      clock, repeats,
      {[&](int r) {
         for (std::size_t t = 0; t < transfers.size(); ++t)
           fill_pattern(sent[t]->get(), bytes, pattern(r, t), *streams.at(transfers[t].first));
       },
       [&](int) {
         for (const auto& [rank, stream] : streams)
           if (stream.get() != &clock) wait_for(*stream, clock);  // fork
         for (int k = 0; k < batch; ++k) {
           nccl_check(ncclGroupStart(), "ncclGroupStart");
           for (std::size_t t = 0; t < transfers.size(); ++t) {
             const auto [from, to] = transfers[t];
             nccl_check(ncclSend(sent[t]->get(), bytes, ncclUint8, to, comms[from], streams.at(from)->get()),
                        "ncclSend");
             nccl_check(ncclRecv(received[t]->get(), bytes, ncclUint8, from, comms[to], streams.at(to)->get()),
                        "ncclRecv");
           }
           nccl_check(ncclGroupEnd(), "ncclGroupEnd");
         }
         for (const auto& [rank, stream] : streams)
           if (stream.get() != &clock) wait_for(clock, *stream);  // join
       },
       [&](int r) {
         for (std::size_t t = 0; t < transfers.size(); ++t) {
           const auto [from, to] = transfers[t];
           verify_pattern(received[t]->get(), bytes, pattern(r, t), *streams.at(to),
                          "ncclSend/ncclRecv rank " + std::to_string(from) + " (GPU " +
                              std::to_string(machine.device(from)) + ") -> rank " + std::to_string(to) + " (GPU " +
                              std::to_string(machine.device(to)) + ") of " + format_size(bytes));
         }
       }});
  return seconds / batch;
}

std::string nccl_conventions() {
  return "nccl-tests conventions: algbw = bytes / time (1e9 B/s), busbw = algbw x 1 (send/recv)";
}

}  // namespace yeex::p2p
