// The shared topology on a real machine: every visible GPU is listed with a parseable PCI bus id,
// and where NVML answers every pair has a link type consistent with the CUDA peer attributes.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdio>

#include "src/runtime/topology.hpp"

namespace {

using namespace yeex;

int visible_gpus() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  return n;
}

TEST(TopologyGpu, ListsEveryVisibleGpu) {
  const int n = visible_gpus();
  if (n == 0) GTEST_SKIP() << "no CUDA device visible";
  const Topology t = detect_topology();
  ASSERT_EQ(static_cast<int>(t.gpus.size()), n);
  ASSERT_EQ(static_cast<int>(t.pairs.size()), n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(t.gpus[i].device, i);
    EXPECT_FALSE(t.gpus[i].name.empty());
    EXPECT_NO_THROW(sysfs_pci_address(t.gpus[i].pci_bus_id)) << t.gpus[i].pci_bus_id;
    ASSERT_EQ(static_cast<int>(t.pairs[i].size()), n);
  }
  std::printf("%s", format_topology(t).c_str());
}

TEST(TopologyGpu, NvmlLinkTypesAgreeWithPeerAccess) {
  const int n = visible_gpus();
  if (n < 2) GTEST_SKIP() << "needs 2 GPUs";
  const Topology t = detect_topology();
  if (t.link_source != "NVML") GTEST_SKIP() << t.link_source;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const GpuPair& p = t.pairs[a][b];
      if (a == b) {
        EXPECT_EQ(p.link, "X");
        continue;
      }
      EXPECT_NE(p.link, "?") << a << "," << b;
      EXPECT_EQ(p.link, t.pairs[b][a].link) << "link types are symmetric";
      if (p.link.rfind("NV", 0) == 0) {
        EXPECT_EQ(p.peer_access, 1) << a << "," << b << " " << p.link;
        EXPECT_GT(t.gpus[a].nvlinks, 0);
      }
    }
}

TEST(TopologyGpu, SelectingDevicesKeepsTheirOrder) {
  const int n = visible_gpus();
  if (n < 2) GTEST_SKIP() << "needs 2 GPUs";
  const Topology t = detect_topology({1, 0});
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(t.gpus[0].device, 1);
  EXPECT_EQ(t.gpus[1].device, 0);
}

}  // namespace
