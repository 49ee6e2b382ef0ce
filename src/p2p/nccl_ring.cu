// nccl-ring: every GPU sends to the next and receives from the previous, all at once (rank i ->
// i+1 mod N inside one group), the pattern of nccl-tests' sendrecv_perf and of a periodic halo
// exchange. Swept over --sweep MIN:MAX; per size the time of one round, algbw = bytes per rank /
// time and busbw = algbw (factor 1), as nccl-tests prints them. See nccl_harness.hpp.
#include <algorithm>

#include "src/p2p/nccl_harness.hpp"

namespace yeex::p2p {
namespace {

class NcclRingTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const NcclCommunicators comms(machine);
    const int n = static_cast<int>(machine.gpu_count());
    std::vector<NcclTransfer> ring;
    for (int i = 0; i < n; ++i) ring.push_back({i, (i + 1) % n});
    std::string order;
    for (int i = 0; i <= n; ++i) order += (i ? "->" : "") + std::to_string(machine.device(i % n));
    Curve curve{"nccl-ring",
                "ring " + order + ", every GPU ncclSends to the next and ncclRecvs from the previous at once; " +
                    nccl_conventions() + "; time of one round, median of " + std::to_string(o.repeats) +
                    " repeats; each repeat times min(100, max(1, 16 MiB / size)) rounds back to back",
                {}};
    for (const std::size_t bytes : sweep_sizes(o.sweep_min, o.sweep_max)) {
      const int batch = static_cast<int>(std::clamp<std::size_t>((std::size_t{16} << 20) / bytes, 1, 100));
      const double seconds = nccl_round_seconds(machine, comms, ring, bytes, batch, o.repeats);
      const double algbw = gigabytes_per_second(double(bytes), seconds);
      curve.points.push_back({bytes, algbw, 1e6 * seconds, algbw});
    }
    return {"nccl-ring", {}, {curve}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_nccl_ring_test() { return std::make_unique<NcclRingTest>(); }

}  // namespace yeex::p2p
