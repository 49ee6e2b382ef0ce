// ce-unidir: copy-engine bandwidth in one direction. cudaMemcpyPeerAsync src -> dst on a stream
// of the source GPU, once with peer access on (the copy engines use the link directly), once with
// it off (the driver stages the copy through host memory): the gap is what peer access buys.
#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

class CeUnidirTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const auto cell = [&](bool peer) {
      return [&o, peer](int src, int dst) {
        if (peer && !can_access_peer(src, dst)) return double(NAN);
        set_peer_access(src, dst, peer);
        const double gbps = gigabytes_per_second(double(o.bytes), peer_copy_seconds(src, dst, o.bytes, 1, o.repeats));
        if (!peer && can_access_peer(src, dst))
          enable_peer_access(src, dst);  // leave the machine as found by the solver
        return gbps;
      };
    };
    const std::string what = "cudaMemcpyPeerAsync bandwidth src->dst, " + timing_note(o, o.bytes);
    return {"ce-unidir",
            {pair_matrix(machine, "ce-unidir/peer-on", what + ", peer access on ('-': the driver allows none)", "GB/s",
                         cell(true)),
             pair_matrix(machine, "ce-unidir/peer-off", what + ", peer access off (staged through host memory)", "GB/s",
                         cell(false))},
            {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_ce_unidir_test() { return std::make_unique<CeUnidirTest>(); }

}  // namespace yeex::p2p
