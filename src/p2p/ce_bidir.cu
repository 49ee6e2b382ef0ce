// ce-bidir: copy-engine bandwidth in both directions at once. a -> b on a stream of a and b -> a on
// a stream of b, started together (fork) and timed until both are done (join); the figure is the
// sum of both directions. Peer access on; pairs without it are left out.
#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

class CeBidirTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const std::size_t bytes = o.bytes;
    const auto cell = [&](int a, int b) {
      if (!can_access_peer(a, b)) return double(NAN);
      enable_peer_access(a, b);
      DeviceBuffer from_a(a, bytes), to_b(b, bytes), from_b(b, bytes), to_a(a, bytes);
      Stream on_a(a), on_b(b);
      const std::string pair = std::to_string(a) + "<->" + std::to_string(b);
      const double seconds = median_seconds(
          on_a, o.repeats,
          {[&](int r) {
             fill_pattern(from_a.get(), bytes, r, on_a);
             fill_pattern(from_b.get(), bytes, r, on_b);
           },
           [&](int) {
             wait_for(on_b, on_a);  // fork: b starts when the clock on a starts
             YEEX_CUDA(cudaMemcpyPeerAsync(to_b.get(), b, from_a.get(), a, bytes, on_a.get()));
             YEEX_CUDA(cudaMemcpyPeerAsync(to_a.get(), a, from_b.get(), b, bytes, on_b.get()));
             wait_for(on_a, on_b);  // join: the clock stops when both are done
           },
           [&](int r) {
             verify_pattern(to_b.get(), bytes, r, on_b, "ce-bidir " + pair + " (into " + std::to_string(b) + ")");
             verify_pattern(to_a.get(), bytes, r, on_a, "ce-bidir " + pair + " (into " + std::to_string(a) + ")");
           }});
      return gigabytes_per_second(2.0 * double(bytes), seconds);
    };
    return {"ce-bidir",
            {pair_matrix(machine, "ce-bidir",
                         "cudaMemcpyPeerAsync both ways at once, sum of both directions, " + timing_note(o, bytes) +
                             " each way, peer access on ('-': none allowed); symmetric",
                         "GB/s", cell, true)},
            {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_ce_bidir_test() { return std::make_unique<CeBidirTest>(); }

}  // namespace yeex::p2p
