// host-staged: the path every machine has, and the one the host-staged exchange backend takes.
// Per pair: device -> pinned host buffer (stream of src), then pinned host -> device (stream of
// dst), timed end to end. Per GPU: pinned host -> device (H2D) and device -> pinned host (D2H).
#include "src/p2p/harness.hpp"

namespace yeex::p2p {
namespace {

class HostStagedTest : public P2PTest {
 public:
  std::string unavailable(const Machine& machine) const override { return needs_gpus(machine, 1); }

  TestResult run(const Machine& machine, const P2POptions& o) const override {
    const std::size_t bytes = o.bytes;
    PinnedBuffer host(bytes);
    const auto staged = [&](int src, int dst) {
      DeviceBuffer from(src, bytes), to(dst, bytes);
      Stream on_src(src), on_dst(dst);
      const std::string what = "host-staged " + std::to_string(src) + "->" + std::to_string(dst);
      const double seconds = median_seconds(
          on_src, o.repeats,
          {[&](int r) { fill_pattern(from.get(), bytes, r, on_src); },
           [&](int) {
             YEEX_CUDA(cudaMemcpyAsync(host.get(), from.get(), bytes, cudaMemcpyDeviceToHost, on_src.get()));
             wait_for(on_dst, on_src);
             YEEX_CUDA(cudaMemcpyAsync(to.get(), host.get(), bytes, cudaMemcpyHostToDevice, on_dst.get()));
             wait_for(on_src, on_dst);
           },
           [&](int r) { verify_pattern(to.get(), bytes, r, on_dst, what); }});
      return gigabytes_per_second(double(bytes), seconds);
    };

    Matrix per_gpu{"host-staged/h2d-d2h",
                   "pinned host <-> device bandwidth per GPU, " + timing_note(o, bytes),
                   "GB/s",
                   "direction",
                   "GPU",
                   {"H2D", "D2H"},
                   {},
                   {{}, {}},
                   2};
    for (std::size_t i = 0; i < machine.gpu_count(); ++i) {
      const int d = machine.device(i);
      per_gpu.columns.push_back(std::to_string(d));
      DeviceBuffer device(d, bytes);
      Stream stream(d);
      const double h2d = median_seconds(
          stream, o.repeats,
          {[&](int r) { fill_pattern_host(host.get(), bytes, r); },
           [&](int) {
             YEEX_CUDA(cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice, stream.get()));
           },
           [&](int r) { verify_pattern(device.get(), bytes, r, stream, "H2D into " + std::to_string(d)); }});
      const double d2h = median_seconds(
          stream, o.repeats,
          {[&](int r) { fill_pattern(device.get(), bytes, r, stream); },
           [&](int) {
             YEEX_CUDA(cudaMemcpyAsync(host.get(), device.get(), bytes, cudaMemcpyDeviceToHost, stream.get()));
           },
           [&](int r) { verify_pattern_host(host.get(), bytes, r, "D2H from " + std::to_string(d)); }});
      per_gpu.values[0].push_back(gigabytes_per_second(double(bytes), h2d));
      per_gpu.values[1].push_back(gigabytes_per_second(double(bytes), d2h));
    }
    TestResult result{"host-staged", {per_gpu}, {}};
    if (machine.gpu_count() >= 2)
      result.matrices.push_back(pair_matrix(machine, "host-staged/pairs",
                                            "src -> pinned host -> dst, end to end, " + timing_note(o, bytes), "GB/s",
                                            staged));
    return result;
  }
};

}  // namespace

std::unique_ptr<P2PTest> make_host_staged_test() { return std::make_unique<HostStagedTest>(); }

}  // namespace yeex::p2p
