// bench --markdown (src/bench/bench_markdown.hpp) on a document written here: a table per scaling
// and size in the order met, a row per backend (b2r with its depth, the engine's T1 named), a column
// per device count, skipped rows said once per reason, a row whose fields differ marked, and a weak
// table without a 1-device column pointing at its T1. The command's own output is checked in
// tests/integration/test_cli.cpp.
#include "src/bench/bench_markdown.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace yeex {
namespace {

using ::testing::HasSubstr;

nlohmann::json row(const std::string& scaling, const std::string& exchange, int devices, double efficiency,
                   double seconds, long long nz, const std::string& skipped = "", const std::string& bits = "") {
  return {{"scaling", scaling},
          {"size", 64},
          {"grid", {64, 64, nz}},
          {"exchange", exchange},
          {"devices", devices},
          {"halo_depth", exchange == "b2r" ? 2 : 1},
          {"efficiency", efficiency},
          {"skipped", skipped},
          {"seconds_per_step_median", seconds},
          {"bits", bits}};
}

TEST(BenchMarkdown, TablesByScalingRowsByBackendColumnsByCount) {
  const nlohmann::json bench = {
      {"engine", "cuda"},
      {"precision", "f32"},
      {"command", "yeex bench --size 64"},
      {"provenance",
       {{"date_utc", "2026-11-27T00:00:00Z"},
        {"host", "box"},
        {"yeex_version", "0.1.0"},
        {"git_commit", "abc"},
        {"gpus", {{{"index", 0}, {"name", "GPU A"}}, {{"index", 1}, {"name", "GPU B"}}}}}},
      {"devices", {0, 1}},
      {"peer_access", false},
      {"copy_bandwidth_gb_per_s", 4000.0},
      {"repeats", 5},
      {"steps_per_repeat", 100},
      {"warmup_steps", 20},
      {"rows",
       {row("strong", "-", 1, 1.0, 0.001, 64), row("strong", "p2p", 1, 0.99, 0.00101, 64),
        row("strong", "p2p", 2, 0.8, 0.000625, 64, "", "DIFFERS"), row("strong", "b2r", 2, 0.9, 0.000556, 64),
        row("strong", "coop", 2, 0.0, 0.0, 64, "needs peer access, which --no-peer turns off"),
        row("strong", "coop", 4, 0.0, 0.0, 64, "needs peer access, which --no-peer turns off"),
        row("weak", "p2p", 2, 0.95, 0.00105, 128)}}};
  const std::string md = bench_markdown(bench);
  EXPECT_THAT(md, HasSubstr("# yeex bench: cuda engine, f32\n"));
  EXPECT_THAT(md, HasSubstr("- GPUs: 0 GPU A; 1 GPU B; devices used, in order: [0,1] (--no-peer)\n"));
  EXPECT_THAT(md, HasSubstr("## Strong scaling, 64³ in all (64 x 64 x 64)\n\n"
                            "| backend | 1 device | 2 devices | 4 devices |\n|---|---:|---:|---:|\n"
                            "| engine alone (T1) | 100.0 % (1.000 ms) |  |  |\n"
                            "| p2p | 99.0 % (1.010 ms) | 80.0 % (0.625 ms) **fields differ** |  |\n"
                            "| b2r R=2 |  | 90.0 % (0.556 ms) |  |\n"
                            "| coop |  | skipped | skipped |\n"));
  // One line per reason, naming the first row that gave it.
  EXPECT_THAT(md, HasSubstr("Skipped:\n- coop on 2: needs peer access, which --no-peer turns off\n"));
  EXPECT_EQ(md.find("coop on 4:"), std::string::npos);
  EXPECT_THAT(md, HasSubstr("## Weak scaling, 64³ per device (stacked along z)\n\n| backend | 2 devices |\n"));
  EXPECT_THAT(
      md,
      HasSubstr("| p2p | 95.0 % (1.050 ms) |\n\nT1: the engine alone on one device, the strong table's first row.\n"));
  EXPECT_LT(md.find("## Strong"), md.find("## Weak"));
}

}  // namespace
}  // namespace yeex
