// yeex-p2p without a GPU: size parsing, the matrix/curve/JSON formats from plain data, and the
// binary's exit codes (0 help/list/topo, 1 a measurement with no GPU, 2 bad input).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "src/p2p/options.hpp"
#include "src/p2p/report.hpp"
#include "tests/support/run_helpers.hpp"

namespace {

using namespace yeex::p2p;

yeex::testing::CommandResult run_p2p(const std::string& args) {
  return yeex::testing::run_program(YEEX_P2P_BINARY, args);
}

Matrix two_by_two() {
  return {"ce-unidir/peer-on",
          "bandwidth",
          "GB/s",
          "dst",
          "src",
          {"0", "1"},
          {"0", "1"},
          {{NAN, 390.126}, {388.5, NAN}},
          2};
}

TEST(P2PSize, BinarySuffixes) {
  EXPECT_EQ(parse_size("4"), 4u);
  EXPECT_EQ(parse_size("1K"), 1024u);
  EXPECT_EQ(parse_size("64k"), 64u << 10);
  EXPECT_EQ(parse_size("256M"), 256u << 20);
  EXPECT_EQ(parse_size("2G"), std::size_t{2} << 30);
  EXPECT_EQ(parse_size("1MiB"), 1u << 20);
  EXPECT_EQ(parse_size("8B"), 8u);
}

TEST(P2PSize, RefusesBadSizes) {
  for (const char* bad : {"0", "0K", "-4", "", "K", "12Q", "1.5M", "99999999999999999999", "17179869184G"})
    EXPECT_THROW(parse_size(bad), std::invalid_argument) << bad;
}

TEST(P2PSize, SweepIsPowersOfTwo) {
  const auto [min, max] = parse_sweep("4:64");
  EXPECT_EQ(sweep_sizes(min, max), (std::vector<std::size_t>{4, 8, 16, 32, 64}));
  EXPECT_EQ(sweep_sizes(4, std::size_t{256} << 20).size(), 27u);
  EXPECT_THROW(parse_sweep("64"), std::invalid_argument);
  EXPECT_THROW(parse_sweep("1M:4K"), std::invalid_argument);
  EXPECT_EQ(format_size(64u << 20), "64 MiB");
  EXPECT_EQ(format_size(1536), "1.5 KiB");
}

TEST(P2PDevices, RefusesDuplicatesAndMissing) {
  EXPECT_NO_THROW(check_devices({0, 2}, 4));
  EXPECT_THROW(check_devices({0, 0}, 4), std::invalid_argument);
  EXPECT_THROW(check_devices({4}, 4), std::invalid_argument);
  EXPECT_THROW(check_devices({-1}, 4), std::invalid_argument);
  EXPECT_THROW(check_test_names({"nope"}, {"ce-unidir"}), std::invalid_argument);
}

TEST(P2PReport, MatrixIsDstBySrcWithHeader) {
  const std::string text = format_matrix(two_by_two());
  EXPECT_EQ(text,
            "# ce-unidir/peer-on\n"
            "# cell: bandwidth [GB/s]\n"
            "# rows: dst, columns: src; '-' = not measured\n"
            "  dst\\src        0        1\n"
            "        0        -   390.13\n"
            "        1   388.50        -\n");
}

TEST(P2PReport, CurveTable) {
  const std::string text =
      format_curve({"sweep/0->1", "bandwidth vs size", {{4, 0.002, 2.0}, {1u << 20, 50.0, 20.97}}});
  EXPECT_NE(text.find("# sweep/0->1\n"), std::string::npos);
  EXPECT_NE(text.find("1 MiB"), std::string::npos);
  EXPECT_NE(text.find("50.00"), std::string::npos);
}

TEST(P2PReport, NcclCurveHasAlgbwAndBusbwColumns) {
  Curve ring{"nccl-ring", "ring", {{4, 0.001, 4.0, 0.001}, {1u << 20, 100.0, 10.49, 100.0}}};
  const std::string text = format_curve(ring);
  EXPECT_NE(text.find("time us      algbw      busbw"), std::string::npos) << text;
  EXPECT_NE(text.find("1 MiB      10.49     100.00     100.00"), std::string::npos) << text;
  const nlohmann::json j = to_json(ring);
  EXPECT_DOUBLE_EQ(j["points"][1]["busbw_gbps"].get<double>(), 100.0);
  EXPECT_FALSE(to_json(Curve{"sweep/0->1", "", {{4, 1.0, 4.0}}})["points"][0].contains("busbw_gbps"));
}

TEST(P2PReport, JsonHasNullForUnmeasured) {
  const nlohmann::json j = to_json(TestResult{"ce-unidir", {two_by_two()}, {}});
  EXPECT_EQ(j["test"], "ce-unidir");
  const auto& m = j["matrices"][0];
  EXPECT_EQ(m["unit"], "GB/s");
  EXPECT_EQ(m["row_label"], "dst");
  EXPECT_TRUE(m["values"][0][0].is_null());
  EXPECT_DOUBLE_EQ(m["values"][0][1].get<double>(), 390.126);
  EXPECT_EQ(m["rows"], nlohmann::json({"0", "1"}));
}

TEST(P2PBinary, HelpListAndTopoWorkWithoutGpu) {
  const auto help = run_p2p("--help");
  EXPECT_EQ(help.exit_code, 0);
  // Each value named in a word and explained; no CLI11 type or range names ("INT:INT in [1 - 1000]").
  for (const char* noise : {"INT", "TEXT", "in [", "=64M"})
    EXPECT_EQ(help.output.find(noise), std::string::npos) << noise;
  for (const char* named : {"--repeats N", "--size BYTES", "--sweep MIN:MAX", "(default 7)", "Usage: yeex-p2p "})
    EXPECT_NE(help.output.find(named), std::string::npos) << named << "\n" << help.output;
  const auto list = run_p2p("--list");
  EXPECT_EQ(list.exit_code, 0);
  for (const char* name :
       {"ce-unidir", "ce-bidir", "sm-copy", "host-staged", "latency", "pingpong", "sweep", "nccl-pairs", "nccl-ring"})
    EXPECT_NE(list.output.find(name), std::string::npos) << name;
  EXPECT_NE(list.output.find("no CUDA device is visible"), std::string::npos);
  const auto topo = run_p2p("topo");
  EXPECT_EQ(topo.exit_code, 0);
  EXPECT_NE(topo.output.find("no CUDA device is visible"), std::string::npos);
}

TEST(P2PBinary, TopoJsonSaysWhyThereIsNoGpu) {
  yeex::testing::ScratchDir out;
  const auto topo = run_p2p("topo --json " + (out / "topo.json").string());
  ASSERT_EQ(topo.exit_code, 0) << topo.output;
  const auto j = yeex::testing::read_json(out / "topo.json");
  EXPECT_EQ(j["program"], "yeex-p2p");
  if (j["topology"]["gpus"].empty())  // CI; on a GPU machine the GPUs are listed instead
    EXPECT_NE(j["topology"]["note"].get<std::string>().find("no CUDA device is visible"), std::string::npos);
  EXPECT_TRUE(j["topology"].contains("link_types"));
  EXPECT_TRUE(j["provenance"].contains("topology"));  // the solver's run.json records the same
}

TEST(P2PBinary, MeasuringWithoutGpuExits1) {
  const auto r = run_p2p("");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("yeex-p2p: no CUDA device is visible"), std::string::npos);
  EXPECT_EQ(run_p2p("--test latency").exit_code, 1);
}

TEST(P2PBinary, BadInputExits2) {
  for (const char* args :
       {"--size 0", "--size -1", "--size lots", "--sweep 1M:4K", "--test nope", "--test ce-unidir,nope",
        "--devices 0,0", "--devices 7", "--repeats 0", "--no-such-option"}) {
    const auto r = run_p2p(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
  }
  EXPECT_NE(run_p2p("--test nope").output.find("ce-unidir, ce-bidir"), std::string::npos);
}

}  // namespace
