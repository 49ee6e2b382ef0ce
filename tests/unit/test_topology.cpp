// The topology's parsing and formatting helpers, and its table/JSON formats from plain data (no
// GPU, no NVML needed): CPU lists, sysfs PCI addresses, NVML levels, the NVSwitch rule.
#include <gtest/gtest.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "src/runtime/topology.hpp"

namespace {

using namespace yeex;

// Two GPUs behind NVSwitch, one on the other socket through PCIe only.
Topology three_gpus() {
  Topology t;
  t.link_source = "NVML";
  t.gpus = {{0, "NVIDIA H200", "0000:1B:00.0", 0, "0-47", 18},
            {1, "NVIDIA H200", "0000:43:00.0", 0, "0-47", 18},
            {2, "NVIDIA L40S", "0000:9A:00.0", 1, "48-95", 0}};
  t.pairs.assign(3, std::vector<GpuPair>(3));
  const char* links[3][3] = {{"X", "NV18", "SYS"}, {"NV18", "X", "SYS"}, {"SYS", "SYS", "X"}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      t.pairs[r][c].link = links[r][c];
      if (r == c) continue;
      const bool nv = r < 2 && c < 2;
      t.pairs[r][c].peer_access = nv ? 1 : 0;
      t.pairs[r][c].performance_rank = nv ? 0 : 1;
      t.pairs[r][c].native_atomics = nv ? 1 : 0;
    }
  return t;
}

TEST(TopologyCpuList, ParsesAndFormats) {
  EXPECT_EQ(parse_cpulist("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpulist(""), std::vector<int>{});
  EXPECT_EQ(parse_cpulist("5"), std::vector<int>{5});
  EXPECT_EQ(format_cpulist({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(format_cpulist({20, 21, 0, 1, 1}), "0-1,20-21");
  EXPECT_EQ(format_cpulist({}), "");
  EXPECT_EQ(format_cpulist(parse_cpulist("0-9,20-29")), "0-9,20-29");
  for (const char* bad : {"a", "3-1", "1,", ",1", "1--2", "0-", "-1", "1 2"})
    EXPECT_THROW(parse_cpulist(bad), std::invalid_argument) << bad;
}

TEST(TopologyPciAddress, SysfsFormIsLowerCaseWithFourDigitDomain) {
  EXPECT_EQ(sysfs_pci_address("0000:1B:00.0"), "0000:1b:00.0");
  EXPECT_EQ(sysfs_pci_address("00000000:9A:00.0"), "0000:9a:00.0");
  EXPECT_EQ(sysfs_pci_address("0000:00:06.0"), "0000:00:06.0");
  for (const char* bad : {"", "1B:00.0", "0000:1B:00", "0000:1G:00.0", "0000:1B:00.0x", "10000:00:00.0"})
    EXPECT_THROW(sysfs_pci_address(bad), std::invalid_argument) << bad;
}

TEST(TopologyLinks, NvmlLevelsAsNvidiaSmiNamesThem) {
  EXPECT_EQ(pcie_link_name(10), "PIX");
  EXPECT_EQ(pcie_link_name(20), "PXB");
  EXPECT_EQ(pcie_link_name(30), "PHB");
  EXPECT_EQ(pcie_link_name(40), "NODE");
  EXPECT_EQ(pcie_link_name(50), "SYS");
  EXPECT_EQ(pcie_link_name(-1), "?");
}

TEST(TopologyLinks, DirectLinksThenSwitchLinksWithPeerAccess) {
  EXPECT_EQ(nvlinks_between(4, 0, 0, true), 4);     // DGX-1-style bonded direct links
  EXPECT_EQ(nvlinks_between(0, 18, 18, true), 18);  // HGX H100/H200: every link to NVSwitch
  EXPECT_EQ(nvlinks_between(0, 18, 12, true), 12);  // the narrower GPU bounds the pair
  EXPECT_EQ(nvlinks_between(0, 18, 18, false), 0);  // switch links but no peer access: not one fabric
  EXPECT_EQ(nvlinks_between(0, 18, 0, true), 0);    // the other GPU has no NVLink: PCIe
  EXPECT_EQ(nvlinks_between(0, 0, 0, true), 0);
}

TEST(TopologyFormat, LikeNvidiaSmiTopo) {
  const std::string text = format_topology(three_gpus());
  EXPECT_NE(text.find("# topology: 3 GPU(s); link types from NVML"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU0   X      NV18   SYS    0-47                  0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU2   SYS    SYS    X      48-95                 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("0000:9A:00.0"), std::string::npos);
  EXPECT_NE(text.find("NV# = a bonded set of # NVLinks"), std::string::npos);
  EXPECT_NE(text.find("# topo/peer-access"), std::string::npos);
  EXPECT_NE(text.find("# topo/performance-rank"), std::string::npos);
}

TEST(TopologyFormat, SaysWhyThereIsNoGpu) {
  Topology none;
  none.note = "no CUDA device is visible";
  EXPECT_EQ(format_topology(none), "# topology: no CUDA device is visible\n");
  EXPECT_EQ(to_json(none)["note"], "no CUDA device is visible");
}

TEST(TopologyJson, LinkTypesGpusAndMatrices) {
  const nlohmann::json j = to_json(three_gpus());
  EXPECT_EQ(j["link_source"], "NVML");
  EXPECT_EQ(j["link_types"][0][1], "NV18");
  EXPECT_EQ(j["link_types"][2][0], "SYS");
  EXPECT_EQ(j["gpus"][2]["cpu_affinity"], "48-95");
  EXPECT_EQ(j["gpus"][0]["nvlinks"], 18);
  ASSERT_EQ(j["links"].size(), 3u);
  EXPECT_EQ(j["links"][0]["title"], "topo/peer-access");
  EXPECT_TRUE(j["links"][0]["values"][0][0].is_null());
  EXPECT_EQ(j["links"][0]["values"][0][1], 1.0);
  EXPECT_EQ(j["links"][1]["values"][2][0], 1.0);
}

TEST(TopologyDetect, NeverThrowsWithoutGpu) {
  // On a machine without a GPU (CI) this says so; with GPUs it lists them. Either way it returns.
  const Topology t = detect_topology();
  if (t.gpus.empty()) EXPECT_FALSE(t.note.empty());
  EXPECT_EQ(t.pairs.size(), t.gpus.size());
}

}  // namespace
