// The predicted exchange time of `yeex bench --p2p-json`: reading a yeex-p2p sweep, the
// interpolation of time against message size, the halo messages of the plan, the prediction.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "src/bench/exchange_model.hpp"

namespace {

using namespace yeex;

// What `yeex-p2p --test sweep --json` writes, cut down to what the model reads.
nlohmann::json sweep_document() {
  return nlohmann::json::parse(R"({
    "program": "yeex-p2p",
    "results": [
      {"test": "latency", "matrices": [], "curves": []},
      {"test": "sweep", "matrices": [], "curves": [
        {"title": "sweep/0->1", "definition": "...", "points": [
          {"bytes": 4, "gbps": 0.002, "us": 2.0},
          {"bytes": 1024, "gbps": 0.5, "us": 2.0},
          {"bytes": 1048576, "gbps": 200.0, "us": 8.0},
          {"bytes": 2097152, "gbps": null, "us": null}]},
        {"title": "sweep/1->2", "definition": "...", "points": [
          {"bytes": 4, "gbps": 0.001, "us": 4.0},
          {"bytes": 1048576, "gbps": 100.0, "us": 16.0}]}]}
    ]})");
}

// Every message takes `us` microseconds whatever its size (within the measured range).
P2PSweep flat_sweep(double us) { return {"test", {{0, 1, {{1.0, us * 1e-6}, {double(1u << 30), us * 1e-6}}}}}; }

TEST(ExchangeModelSweep, ReadsTheSweepCurvesOfAYeexP2PFile) {
  const P2PSweep s = parse_p2p_sweep(sweep_document(), "p2p.json");
  ASSERT_EQ(s.curves.size(), 2u);
  EXPECT_EQ(s.curves[0].src, 0);
  EXPECT_EQ(s.curves[0].dst, 1);
  ASSERT_EQ(s.curves[0].points.size(), 3u);  // the null point is left out
  EXPECT_DOUBLE_EQ(s.curves[0].points[2].seconds, 8e-6);
  EXPECT_EQ(s.curves[1].src, 1);
}

TEST(ExchangeModelSweep, RefusesFilesWithoutASweep) {
  EXPECT_THROW(parse_p2p_sweep(nlohmann::json::object(), "x"), std::invalid_argument);
  EXPECT_THROW(parse_p2p_sweep(nlohmann::json::parse(R"({"results": [{"test": "latency", "curves": []}]})"), "x"),
               std::invalid_argument);
  auto bad_title = sweep_document();
  bad_title["results"][1]["curves"][0]["title"] = "sweep/zero-to-one";
  EXPECT_THROW(parse_p2p_sweep(bad_title, "x"), std::invalid_argument);
  auto negative = sweep_document();
  negative["results"][1]["curves"][0]["points"][0]["us"] = -1.0;
  EXPECT_THROW(parse_p2p_sweep(negative, "x"), std::invalid_argument);
  EXPECT_THROW(load_p2p_sweep("/nonexistent/p2p.json"), std::invalid_argument);
}

TEST(ExchangeModelInterpolation, LogLogBetweenPointsFlatBelowLinearAbove) {
  const MessageCurve c = parse_p2p_sweep(sweep_document(), "x").curves[0];
  EXPECT_DOUBLE_EQ(message_seconds(c, 1024), 2e-6);      // a measured point
  EXPECT_DOUBLE_EQ(message_seconds(c, 1), 2e-6);         // below the smallest: latency
  EXPECT_NEAR(message_seconds(c, 32768), 4e-6, 1e-15);   // halfway in log(size): geometric mean of 2 and 8
  EXPECT_DOUBLE_EQ(message_seconds(c, 4 << 20), 32e-6);  // above the largest: its bandwidth
  EXPECT_TRUE(std::isnan(message_seconds(MessageCurve{}, 4)));
}

TEST(ExchangeModelMessages, DepthOneMovesTwoPlanesEachWayPerInterface) {
  // 64^3 floats: padded plane of 65 x 65 nodes = pitch_y 128 x 67 rows = 8576 elements.
  const auto m = halo_messages({64, 64, 64}, 4, 1, sizeof(float));
  ASSERT_EQ(m.size(), 3u * 4u);  // 3 interfaces x (Ex, Ey down + Hx, Hy up)
  for (const auto& message : m) {
    EXPECT_DOUBLE_EQ(message.bytes, 8576.0 * 4);
    EXPECT_EQ(message.every, 1);
  }
  int into_interior = 0;
  for (const auto& message : m) into_interior += message.to == 1;
  EXPECT_EQ(into_interior, 4);
}

TEST(ExchangeModelMessages, DepthRMovesTheGhostZoneOncePerBlock) {
  const auto m = halo_messages({64, 64, 64}, 4, 2, sizeof(double));
  double bytes_into_interior = 0;
  int messages_into_interior = 0;
  for (const auto& message : m) {
    EXPECT_EQ(message.every, 2);
    if (message.to != 1) continue;
    ++messages_into_interior;
    bytes_into_interior += message.bytes;
  }
  EXPECT_EQ(messages_into_interior, 12);  // E and H, 3 components each, from both neighbours
  // From above: E 2 planes + H 1 plane; from below: E 2 + H 2; 3 components each: 21 planes.
  const double plane = 96.0 * 67 * sizeof(double);  // doubles: rows padded to 96 elements (16 per 128 B)
  EXPECT_DOUBLE_EQ(bytes_into_interior, 21 * plane);
}

TEST(ExchangeModelPrediction, CountsTheBusiestSubdomainsMessages) {
  const P2PSweep ten = flat_sweep(10);
  const std::vector<int> four{0, 1, 2, 3}, two{0, 1};
  EXPECT_NEAR(predicted_exchange_seconds(ten, {64, 64, 64}, four, 1, 4), 40e-6, 1e-12);  // interior: 4 messages
  EXPECT_NEAR(predicted_exchange_seconds(ten, {64, 64, 64}, two, 1, 4), 20e-6, 1e-12);   // each end: 2
  EXPECT_NEAR(predicted_exchange_seconds(ten, {64, 64, 64}, four, 2, 4), 60e-6, 1e-12);  // 12 every 2 steps
  EXPECT_TRUE(std::isnan(predicted_exchange_seconds(ten, {64, 64, 64}, {0}, 1, 4)));
  EXPECT_TRUE(std::isnan(predicted_exchange_seconds(P2PSweep{}, {64, 64, 64}, two, 1, 4)));
}

TEST(ExchangeModelPrediction, UsesThePairsCurveItsReverseOrTheSlowest) {
  // 0->1 takes 10 us per message, 2->3 takes 100 us.
  P2PSweep s = flat_sweep(10);
  s.curves.push_back({2, 3, {{1.0, 100e-6}, {double(1u << 30), 100e-6}}});
  EXPECT_NEAR(predicted_exchange_seconds(s, {64, 64, 64}, {0, 1}, 1, 4), 20e-6, 1e-12);  // 0->1 and its reverse
  EXPECT_NEAR(predicted_exchange_seconds(s, {64, 64, 64}, {3, 2}, 1, 4), 200e-6, 1e-12);
  EXPECT_NEAR(predicted_exchange_seconds(s, {64, 64, 64}, {0, 5}, 1, 4), 200e-6, 1e-12);  // unknown pair: slowest
}

}  // namespace
