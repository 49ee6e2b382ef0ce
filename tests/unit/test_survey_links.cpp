// The link-matrix parsers on real tool output (tests/data/p2p/README.md says where each file comes
// from) and the what-if model built on them (src/survey/link_matrices.hpp, what_if.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "src/survey/link_matrices.hpp"
#include "src/survey/what_if.hpp"

namespace yeex {
namespace {

const std::filesystem::path kData = std::filesystem::path(YEEX_SOURCE_DIR) / "tests" / "data" / "p2p";

TEST(LinkMatrices, P2pSampleWithEveryMatrix) {
  const LinkMatrices l = load_link_matrices(kData / "p2p_bandwidth_latency_2x_rtx2080_nvlink.txt");
  EXPECT_EQ(l.format, "p2pBandwidthLatencyTest");
  EXPECT_EQ(l.gpus, (std::vector<std::string>{"0", "1"}));
  // The unidirectional matrices, not halved bidirectional ones; the diagonal is not a link.
  EXPECT_DOUBLE_EQ(l.peer_bandwidth.values[0][1], 24.23);
  EXPECT_TRUE(std::isnan(l.peer_bandwidth.values[0][0]));
  EXPECT_DOUBLE_EQ(l.staged_bandwidth.values[1][0], 5.82);
  // The GPU latency tables, not the CPU ones printed after them.
  EXPECT_DOUBLE_EQ(l.peer_latency.values[0][1], 0.92);
  EXPECT_DOUBLE_EQ(l.staged_latency.values[0][1], 20.55);
  EXPECT_DOUBLE_EQ(l.staged_latency.values[1][0], 11.36);
  // The slower direction of a pair: the larger latency, the smaller bandwidth.
  EXPECT_DOUBLE_EQ(pair_value(l.staged_latency, 0, 1, false), 20.55);
  EXPECT_DOUBLE_EQ(pair_value(l.peer_bandwidth, 0, 1, true), 24.23);
}

TEST(LinkMatrices, BidirectionalAloneIsHalvedAndSaysSo) {
  const LinkMatrices l = load_link_matrices(kData / "p2p_bandwidth_latency_4gpu_two_sockets.txt");
  ASSERT_EQ(l.gpus.size(), 4u);
  EXPECT_DOUBLE_EQ(l.peer_bandwidth.values[0][1], 19.18 / 2);
  EXPECT_TRUE(std::isnan(l.peer_bandwidth.values[2][2]));  // "X"
  EXPECT_TRUE(l.staged_bandwidth.rows.empty());
  EXPECT_DOUBLE_EQ(l.peer_latency.values[0][2], 16.86);
  ASSERT_FALSE(l.notes.empty());
  EXPECT_NE(l.notes.front().find("half the bidirectional"), std::string::npos) << l.notes.front();
}

TEST(LinkMatrices, EightGpusOfTwoBanks) {
  const LinkMatrices l = load_link_matrices(kData / "p2p_bandwidth_latency_8gpu_plx_banks.txt");
  ASSERT_EQ(l.gpus.size(), 8u);
  EXPECT_DOUBLE_EQ(l.peer_bandwidth.values[7][3], 14.73 / 2);
  EXPECT_TRUE(l.peer_latency.rows.empty());
}

TEST(LinkMatrices, NvbandwidthPrefersCopyEnginesAndReadsNanoseconds) {
  const LinkMatrices l = load_link_matrices(kData / "nvbandwidth_4gpu_plx_pairs.txt");
  EXPECT_EQ(l.format, "nvbandwidth");
  ASSERT_EQ(l.gpus.size(), 4u);
  EXPECT_DOUBLE_EQ(l.peer_bandwidth.values[0][1], 13.07);  // the CE matrix, not the SM one after it
  EXPECT_TRUE(std::isnan(l.peer_bandwidth.values[3][3]));  // "N/A"
  EXPECT_NEAR(l.peer_latency.values[2][0], 6.31, 1e-12);   // 6310 ns
  EXPECT_TRUE(l.staged_bandwidth.rows.empty());            // nvbandwidth has no peer-off copies
}

TEST(LinkMatrices, RefusesATruncatedMatrix) {
  try {
    load_link_matrices(kData / "p2p_bandwidth_latency_dgx1_first_row_only.txt");
    FAIL() << "a matrix of one row for eight columns was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("1 rows for 8 columns"), std::string::npos) << e.what();
  }
}

TEST(LinkMatrices, RefusesTextWithoutMatricesAndTwoMachinesInOneFile) {
  EXPECT_THROW(parse_link_matrices_text("nothing to see\n", "x.txt"), std::invalid_argument);
  const std::string one =
      "Unidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n   D\\D     0      1\n     0 100.0  20.0\n     1  20.0 "
      "100.0\n";
  EXPECT_NO_THROW(parse_link_matrices_text(one, "one.txt"));
  EXPECT_THROW(parse_link_matrices_text(one + one, "two.txt"), std::invalid_argument);
  EXPECT_THROW(
      parse_link_matrices_text(
          "Unidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n D\\D 0 1\n 0 1.0 fast\n 1 2.0 1.0\n", "bad.txt"),
      std::invalid_argument);
}

TEST(LinkMatrices, YeexP2pJsonAndRoundTrip) {
  const nlohmann::json doc = {{"results",
                               {{{"test", "ce-unidir"},
                                 {"matrices",
                                  {{{"title", "ce-unidir/peer-on"},
                                    {"rows", {"0", "1"}},
                                    {"columns", {"0", "1"}},
                                    {"values", {{nullptr, 300.0}, {310.0, nullptr}}}},
                                   {{"title", "ce-unidir/peer-off"},
                                    {"rows", {"0", "1"}},
                                    {"columns", {"0", "1"}},
                                    {"values", {{nullptr, 20.0}, {21.0, nullptr}}}}}}},
                                {{"test", "latency"},
                                 {"matrices",
                                  {{{"title", "latency"},
                                    {"rows", {"0", "1"}},
                                    {"columns", {"0", "1"}},
                                    {"values", {{nullptr, 2.5}, {2.0, nullptr}}}}}}}}}};
  const LinkMatrices l = parse_link_matrices_json(doc, "p2p.json");
  EXPECT_EQ(l.format, "yeex-p2p");
  EXPECT_DOUBLE_EQ(pair_value(l.peer_bandwidth, 0, 1, true), 300.0);
  EXPECT_DOUBLE_EQ(pair_value(l.peer_latency, 0, 1, false), 2.5);
  const LinkMatrices back = link_matrices_from_json(to_json(l));
  EXPECT_EQ(back.gpus, l.gpus);
  EXPECT_DOUBLE_EQ(back.staged_bandwidth.values[1][0], 21.0);
  EXPECT_TRUE(std::isnan(back.peer_latency.values[0][0]));
}

TEST(WhatIf, MessageTimeIsLatencyPlusBytesOverBandwidth) {
  const LinkMatrices l = load_link_matrices(kData / "p2p_bandwidth_latency_2x_rtx2080_nvlink.txt");
  const P2PSweep sweep = sweep_from_links(l, true);
  ASSERT_EQ(sweep.curves.size(), 2u);
  for (double bytes : {4096.0, 1e6, 3e7}) {
    const double expected = 0.92e-6 + bytes / 24.23e9;
    EXPECT_NEAR(message_seconds(sweep.curves[0], bytes), expected, 0.03 * expected) << bytes;
  }
  const P2PSweep staged = sweep_from_links(l, false);
  EXPECT_NEAR(message_seconds(staged.curves[0], 4), 20.55e-6, 1e-9);  // the slower direction's latency
}

TEST(WhatIf, BestGpusFollowTheFastLinks) {
  const LinkMatrices l = load_link_matrices(kData / "p2p_bandwidth_latency_4gpu_two_sockets.txt");
  // 0-1 and 2-3 are the fast pairs; 0-2 the best way across (12.22 and 12.23 GB/s both ways; 1-2
  // is 17.07 one way but 12.17 the other).
  const std::vector<int> two = best_gpus(l, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_GT(pair_value(l.peer_bandwidth, two[0], two[1], true), 9.5);
  const std::vector<int> four = best_gpus(l, 4);
  ASSERT_EQ(four.size(), 4u);
  EXPECT_NEAR(pair_value(l.peer_bandwidth, four[0], four[1], true), 19.17 / 2, 1e-9);
  EXPECT_NEAR(pair_value(l.peer_bandwidth, four[1], four[2], true), 12.22 / 2, 1e-9);
  EXPECT_TRUE(best_gpus(l, 5).empty());
}

TEST(WhatIf, SynchronousAddsOverlappingHidesAndWeakKeepsTheCompute) {
  const LinkMatrices l = load_link_matrices(kData / "p2p_bandwidth_latency_2x_rtx2080_nvlink.txt");
  const ComputeBaseline base{64, {64, 64, 64}, 1e-3};
  const Prediction p2p = predict_row(l, base, "strong", "p2p", {0, 1}, 1, 32);
  ASSERT_TRUE(p2p.skipped.empty()) << p2p.skipped;
  // Each of the two slabs receives 2 messages of one padded 65 x 65 plane (at least 65 * 65 * 4
  // bytes) per step, from its one neighbour.
  EXPECT_GT(p2p.exchange_seconds, 2 * (0.92e-6 + 65 * 65 * 4 / 24.23e9) * 0.97);
  EXPECT_LT(p2p.exchange_seconds, 2 * (0.92e-6 + 4 * 65 * 65 * 4 / 24.23e9));  // rows padded, at most 4x
  EXPECT_NEAR(p2p.step_seconds, 0.5e-3 + p2p.exchange_seconds, 1e-15);
  EXPECT_NEAR(p2p.efficiency, 1e-3 / (2 * p2p.step_seconds), 1e-12);
  const Prediction overlap = predict_row(l, base, "strong", "overlap", {0, 1}, 1, 32);
  EXPECT_NEAR(overlap.step_seconds, std::max(0.5e-3, overlap.exchange_seconds), 1e-15);
  EXPECT_GT(overlap.efficiency, p2p.efficiency);
  const Prediction weak = predict_row(l, base, "weak", "p2p", {0, 1}, 1, 32);
  EXPECT_EQ(weak.grid.nz, 128);
  EXPECT_NEAR(weak.step_seconds, 1e-3 + weak.exchange_seconds, 1e-15);
  const Prediction staged = predict_row(l, base, "strong", "host-staged", {0, 1}, 1, 32);
  EXPECT_GT(staged.exchange_seconds, p2p.exchange_seconds);  // 5.8 GB/s and 20 us against NVLink
  const Prediction b2r = predict_row(l, base, "strong", "b2r", {0, 1}, 2, 32);
  EXPECT_TRUE(b2r.skipped.empty()) << b2r.skipped;
}

TEST(WhatIf, SaysWhyARowCannotBePredicted) {
  const LinkMatrices l = load_link_matrices(kData / "nvbandwidth_4gpu_plx_pairs.txt");
  const ComputeBaseline base{32, {32, 32, 32}, 1e-3};
  EXPECT_NE(predict_row(l, base, "strong", "host-staged", {0, 1}, 1, 32).skipped.find("peer-off"), std::string::npos);
  EXPECT_NE(predict_row(l, base, "strong", "mpi", {0, 1}, 1, 32).skipped, "");
  const auto all = predict(l, {base}, {"p2p", "overlap", "host-staged"}, 8, 2, 32, true, true);
  EXPECT_EQ(all.size(), 2u * 3u * 3u);  // strong and weak, three backends, 2..4 GPUs
  EXPECT_FALSE(what_if_model().empty());
  EXPECT_GE(what_if_assumptions().size(), 4u);
}

}  // namespace
}  // namespace yeex
