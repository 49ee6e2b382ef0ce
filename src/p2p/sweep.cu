// sweep: cudaMemcpyPeerAsync bandwidth against message size for each neighbouring pair of the
// selected GPUs (0->1, 1->2, ...: the pairs a z-slab split exchanges halos between), from
// --sweep MIN to MAX in powers of 2. A halo plane of an N x N float grid is 4 N^2 bytes: 64 KiB
// at N = 128, 16 MiB at N = 2048, so the default 4:256M covers latency-bound and bandwidth-bound.
#include <algorithm>

#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

class SweepTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    TestResult result{"sweep", {}, {}};
    for (std::size_t i = 0; i + 1 < machine.gpu_count(); ++i) {
      const int src = machine.device(i), dst = machine.device(i + 1);
      Curve curve{"sweep/" + std::to_string(src) + "->" + std::to_string(dst),
                  "cudaMemcpyPeerAsync " + std::to_string(src) + "->" + std::to_string(dst) +
                      ", peer access on where allowed; median of " + std::to_string(o.repeats) +
                      " repeats; each repeat times min(100, max(1, 16 MiB / size)) copies back to back; us per copy",
                  {}};
      if (can_access_peer(src, dst)) enable_peer_access(src, dst);
      for (const std::size_t bytes : sweep_sizes(o.sweep_min, o.sweep_max)) {
        const int batch = static_cast<int>(std::clamp<std::size_t>((std::size_t{16} << 20) / bytes, 1, 100));
        const double seconds = peer_copy_seconds(src, dst, bytes, batch, o.repeats);
        curve.points.push_back({bytes, gigabytes_per_second(double(bytes), seconds), 1e6 * seconds});
      }
      result.curves.push_back(curve);
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_sweep_test() { return std::make_unique<SweepTest>(); }

}  // namespace yeex::p2p
