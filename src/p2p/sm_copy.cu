// sm-copy: bandwidth of a copy kernel (the SMs, not the copy engines) through peer pointers, the
// path of the cooperative exchange backend. pull: a kernel on the destination GPU reads the
// source's memory; push: a kernel on the source GPU writes into the destination's memory.
#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

class SmCopyTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 2); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const auto cell = [&](bool push) {
      return [&o, push](int src, int dst) {
        if (!can_access_peer(src, dst)) return double(NAN);
        enable_peer_access(src, dst);
        DeviceBuffer from(src, o.bytes), to(dst, o.bytes);
        Stream on_src(src), on_dst(dst);
        const Stream& runs = push ? on_src : on_dst;
        const std::string what =
            std::string(push ? "sm-copy push " : "sm-copy pull ") + std::to_string(src) + "->" + std::to_string(dst);
        const double seconds = median_seconds(runs, o.repeats,
                                              {[&](int r) { fill_pattern(from.get(), o.bytes, r, on_src); },
                                               [&](int) { launch_copy_kernel(to.get(), from.get(), o.bytes, runs); },
                                               [&](int r) { verify_pattern(to.get(), o.bytes, r, on_dst, what); }});
        return gigabytes_per_second(double(o.bytes), seconds);
      };
    };
    const std::string note = ", " + timing_note(o, o.bytes) + " ('-': no peer access)";
    return {"sm-copy",
            {pair_matrix(machine, "sm-copy/pull",
                         "copy kernel on the dst GPU reading src memory through a peer pointer" + note, "GB/s",
                         cell(false)),
             pair_matrix(machine, "sm-copy/push",
                         "copy kernel on the src GPU writing dst memory through a peer pointer" + note, "GB/s",
                         cell(true))},
            {}};
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_sm_copy_test() { return std::make_unique<SmCopyTest>(); }

}  // namespace yeex::p2p
