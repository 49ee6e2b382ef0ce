// nccl-pairs: ncclSend/ncclRecv between every ordered pair of GPUs, one pair at a time, as the
// nccl exchange backend moves halos. Bandwidth at --size (algbw = busbw for send/recv) and the
// latency of a 4-byte message (100 back to back per repeat, divided by 100). One communicator
// per GPU in this process (ncclCommInitAll); see nccl_harness.hpp for the conventions.
#include "src/p2p/nccl_harness.hpp"

namespace yeex::p2p {
namespace {

constexpr std::size_t kSmallBytes = 4;
constexpr int kSmallBatch = 100;

class NcclPairsTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const NcclCommunicators comms(machine);
    const auto rank = [&](int device) {  // pair_matrix gives CUDA ordinals; NCCL wants ranks
      int r = 0;
      while (machine.device(r) != device) ++r;
      return r;
    };
    const auto seconds = [&](int src, int dst, std::size_t bytes, int batch) {
      return nccl_round_seconds(machine, comms, {{rank(src), rank(dst)}}, bytes, batch, o.repeats);
    };
    const std::string note =
        "; one communicator per GPU (ncclCommInitAll), median of " + std::to_string(o.repeats) + " repeats";
    return {
        "nccl-pairs",
        {pair_matrix(
             machine, "nccl-pairs/bandwidth",
             "ncclSend src -> ncclRecv dst of " + format_size(o.bytes) + ", algbw = busbw = bytes / time" + note,
             "GB/s",
             [&](int src, int dst) { return gigabytes_per_second(double(o.bytes), seconds(src, dst, o.bytes, 1)); }),
         pair_matrix(
             machine, "nccl-pairs/latency",
             "time of one 4-byte ncclSend src -> ncclRecv dst (100 back to back per repeat, divided by 100)" + note,
             "us", [&](int src, int dst) { return 1e6 * seconds(src, dst, kSmallBytes, kSmallBatch); })},
        {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_nccl_pairs_test() { return std::make_unique<NcclPairsTest>(); }

}  // namespace yeex::p2p
