// Topology-aware placement (src/runtime/placement.hpp) on made-up link matrices, and the pinning
// of a ThreadTeam's members.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>

#include "src/runtime/placement.hpp"
#include "src/runtime/thread_team.hpp"

namespace yeex {
namespace {

// A topology of n GPUs whose link between i and j is link(i, j).
template <typename F>
Topology fake_topology(int n, F link) {
  Topology t;
  for (int d = 0; d < n; ++d) t.gpus.push_back({d, "fake", "", d < n / 2 ? 0 : 1, "", -1});
  t.pairs.assign(n, std::vector<GpuPair>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) t.pairs[i][j].link = i == j ? "X" : link(std::min(i, j), std::max(i, j));
  return t;
}

std::vector<int> identity(int n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(Placement, LinkScoresRankNvlinkAbovePcieAboveSockets) {
  EXPECT_GT(link_score("NV18"), link_score("NV2"));
  EXPECT_GT(link_score("NV1"), link_score("PIX"));
  EXPECT_GT(link_score("PIX"), link_score("PXB"));
  EXPECT_GT(link_score("PXB"), link_score("PHB"));
  EXPECT_GT(link_score("PHB"), link_score("NODE"));
  EXPECT_GT(link_score("NODE"), link_score("SYS"));
  EXPECT_EQ(link_score("?"), 0);
  EXPECT_EQ(link_score("NVX"), 0);
}

TEST(Placement, NvSwitchBoxKeepsTheGivenOrder) {
  for (int n : {2, 4, 8, 12}) {
    const Topology t = fake_topology(n, [](int, int) { return std::string("NV18"); });
    EXPECT_EQ(order_devices(t), identity(n)) << n << " GPUs";
  }
}

TEST(Placement, UnknownLinksKeepTheGivenOrder) {
  const Topology t = fake_topology(4, [](int, int) { return std::string("?"); });
  EXPECT_EQ(order_devices(t), identity(4));
}

TEST(Placement, PcieBoxWithTwoNvlinkPairsPutsEachPairSideBySide) {
  // 0-2 and 1-3 bridged by NVLink, everything else through one PCIe host bridge.
  const Topology t = fake_topology(4, [](int i, int j) {
    return (i == 0 && j == 2) || (i == 1 && j == 3) ? std::string("NV2") : std::string("PHB");
  });
  const std::vector<int> order = order_devices(t);
  const std::vector<std::string> links = boundary_links(t, order);
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(std::count(links.begin(), links.end(), "NV2"), 2) << links[0] << " " << links[1] << " " << links[2];
  EXPECT_EQ(links[1], "PHB");  // the one PCIe crossing is in the middle
  // The given order crosses PCIe at every boundary.
  const auto given = boundary_links(t, identity(4));
  EXPECT_EQ(std::count(given.begin(), given.end(), "PHB"), 3);
}

TEST(Placement, AcrossSocketsCrossesTheSocketLinkOnce) {
  // GPUs 0 and 2 on one socket, 1 and 3 on the other (a board that alternates them).
  const Topology t =
      fake_topology(4, [](int i, int j) { return (i % 2) == (j % 2) ? std::string("NODE") : std::string("SYS"); });
  const auto links = boundary_links(t, order_devices(t));
  EXPECT_EQ(std::count(links.begin(), links.end(), "SYS"), 1);
  EXPECT_EQ(order_devices(t).front(), 0);  // the first of the equal chains
}

TEST(Placement, ExhaustiveSearchFindsTheBestSlowestLink) {
  // 8 GPUs in a ring of NVLinks 0-3-6-1-4-7-2-5-0, PCIe elsewhere: a chain along the ring has no
  // PCIe boundary at all.
  const std::vector<int> ring{0, 3, 6, 1, 4, 7, 2, 5};
  const Topology t = fake_topology(8, [&](int i, int j) {
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const int a = ring[k], b = ring[(k + 1) % ring.size()];
      if ((a == i && b == j) || (a == j && b == i)) return std::string("NV4");
    }
    return std::string("PIX");
  });
  const auto links = boundary_links(t, order_devices(t));
  EXPECT_EQ(std::count(links.begin(), links.end(), "NV4"), 7);
}

TEST(Placement, GreedyAboveEightGpusFollowsTheFastLinks) {
  // 10 GPUs: NVLink pairs (0,5), (1,6), (2,7), (3,8), (4,9); PIX within each half of five, SYS across.
  const Topology t = fake_topology(10, [](int i, int j) {
    if (j == i + 5) return std::string("NV2");
    return (i < 5) == (j < 5) ? std::string("PIX") : std::string("SYS");
  });
  const auto order = order_devices(t);
  ASSERT_EQ(order.size(), 10u);
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, identity(10));  // a permutation
  const auto scores = link_scores(t);
  std::vector<int> chain;
  for (int d : order) chain.push_back(d);
  EXPECT_GT(slowest_link(scores, chain), slowest_link(scores, identity(10)) - 1);
  const auto links = boundary_links(t, order);
  EXPECT_GE(std::count(links.begin(), links.end(), "NV2"), 3);
}

TEST(Placement, BoundaryLinksNameSlabsSharingAGpu) {
  const Topology t = fake_topology(2, [](int, int) { return std::string("NV4"); });
  EXPECT_EQ(boundary_links(t, {0, 0, 1}), (std::vector<std::string>{"same GPU", "NV4"}));
  EXPECT_EQ(boundary_links(t, {0, 7}), (std::vector<std::string>{"?"}));
}

TEST(Placement, LocalCpusFollowTheAffinity) {
  Topology t = fake_topology(2, [](int, int) { return std::string("SYS"); });
  t.gpus[0].cpu_affinity = "0-3";
  t.gpus[1].cpu_affinity = "";
  const auto cpus = local_cpus(t, {1, 0});
  ASSERT_EQ(cpus.size(), 2u);
  EXPECT_TRUE(cpus[0].empty());
  EXPECT_EQ(cpus[1], (std::vector<int>{0, 1, 2, 3}));
}

TEST(Placement, TeamMembersPinToThePlan) {
  const std::vector<int> allowed = current_thread_cpus();
  ASSERT_FALSE(allowed.empty());
  const std::vector<int> one{allowed.back()};
  set_thread_pinning({one, one});
  {
    ThreadTeam team(2);
    EXPECT_EQ(team.pinned(), 2);
    std::vector<std::vector<int>> seen(2);
    team.run([&](int member) { seen[member] = current_thread_cpus(); });
    EXPECT_EQ(seen[0], one);
    EXPECT_EQ(seen[1], one);
  }
  {
    ThreadTeam larger(3);  // the plan does not cover it: not pinned
    EXPECT_EQ(larger.pinned(), 0);
  }
  set_thread_pinning({});
  ThreadTeam unpinned(2);
  EXPECT_EQ(unpinned.pinned(), 0);
  std::vector<int> seen;
  unpinned.run([&](int member) {
    if (member == 0) seen = current_thread_cpus();
  });
  EXPECT_EQ(seen, allowed);
}

}  // namespace
}  // namespace yeex
