// What yeex-p2p's NCCL tests share (NCCL builds only): one communicator per selected GPU in this
// process (ncclCommInitAll, rank = position in --devices), and the timing of a set of concurrent
// ncclSend/ncclRecv transfers issued from this one host thread inside ncclGroupStart/End (a
// single thread driving several communicators must group their calls).
//
// Conventions of nccl-tests (sendrecv_perf): algbw = bytes per rank / time (1e9 B/s); busbw =
// algbw x 1 (a send/recv moves each byte over one link once, so the bus factor is 1); the
// median over repeats, each repeat timed with CUDA events; received data checked every repeat.
#pragma once

#include <nccl.h>

#include <utility>
#include <vector>

#include "src/p2p/harness.hpp"

namespace yeex::p2p {

class NcclCommunicators {
 public:
  // One communicator per GPU of `machine`. Turns NVLink SHARP (NVLS) off unless the user set
  // NCCL_NVLS_ENABLE: it reserves GPU memory and these tests are point to point.
  explicit NcclCommunicators(const Machine& machine);
  ~NcclCommunicators();
  NcclCommunicators(const NcclCommunicators&) = delete;
  NcclCommunicators& operator=(const NcclCommunicators&) = delete;
  ncclComm_t operator[](std::size_t rank) const { return comms_[rank]; }

 private:
  std::vector<ncclComm_t> comms_;
};

// (sending rank, receiving rank)
using NcclTransfer = std::pair<int, int>;

// Median seconds of one round of `transfers`, all at once, `bytes` each (ncclUint8), timed as
// `batch` back-to-back rounds divided by `batch`. Every rank's operations go to its own stream;
// the clock runs on the first sender's stream, which forks to the others and joins them.
double nccl_round_seconds(const Machine& machine, const NcclCommunicators& comms,
                          const std::vector<NcclTransfer>& transfers, std::size_t bytes, int batch, int repeats);

// "nccl-tests conventions: ..." for the definitions.
std::string nccl_conventions();

}  // namespace yeex::p2p
