// latency: the time of one small peer copy, the floor under every halo exchange. 100 back-to-back
// 4-byte cudaMemcpyPeerAsync on a stream of src between two events, divided by 100 (one copy is
// shorter than the events' resolution); peer access on. The device-initiated counterpart (no
// copy engine, no launch) is pingpong.cu.
#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

constexpr std::size_t kBytes = 4;
constexpr int kBatch = 100;

class LatencyTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const auto cell = [&](int src, int dst) {
      if (!can_access_peer(src, dst)) return double(NAN);
      enable_peer_access(src, dst);
      return 1e6 * peer_copy_seconds(src, dst, kBytes, kBatch, o.repeats);
    };
    return {
        "latency",
        {pair_matrix(machine, "latency",
                     "time of one 4-byte cudaMemcpyPeerAsync src->dst (100 back to back per repeat, divided by 100), "
                     "median of " +
                         std::to_string(o.repeats) + " repeats, peer access on ('-': none allowed)",
                     "us", cell)},
        {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_latency_test() { return std::make_unique<LatencyTest>(); }

}  // namespace yeex::p2p
