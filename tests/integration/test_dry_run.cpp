// `yeex run DECK --dry-run`: the plan printed (slabs and their z planes, dt, steps, memory, the
// files, the backend and why, what --force would remove) or, with --json, one JSON object on
// stdout; exit 0 and nothing written; refusals exit 2. A dry run costs nothing per step.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;
using testing::read_json;
using testing::run_program;
using testing::run_yeex;
using testing::ScratchDir;
using testing::source_path;
using testing::write_file;

// Runs yeex with stdout alone captured (the plan's JSON), stderr (the deck's warnings) dropped:
// run_program appends "2>&1" to the command, here to an `exit` that passes yeex's status on.
testing::CommandResult run_yeex_stdout(const std::string& args) {
  return run_program(testing::yeex_binary(), args + " 2>/dev/null; exit $?");
}

TEST(DryRun, PrintsThePlanAndWritesNothing) {
  ScratchDir dir;
  const auto out = dir / "out";
  const auto r = run_yeex("run " + source_path("inputs/gpr_scene.toml") +
                          " --engine host --subdomains 3 --dry-run --output " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("nothing run (--dry-run)"));
  EXPECT_THAT(r.output, HasSubstr("64 x 32 x 56 cells"));
  EXPECT_THAT(r.output, HasSubstr("450 steps"));
  EXPECT_THAT(r.output, HasSubstr("dt "));
  EXPECT_THAT(r.output, HasSubstr("slabs     3, halo depth 1"));
  EXPECT_THAT(r.output, HasSubstr("slab 0   z planes [0, 19)  19 planes"));
  EXPECT_THAT(r.output, HasSubstr("slab 2   z planes [38, 56)  18 planes + the inert plane nz"));
  EXPECT_THAT(r.output, HasSubstr("exchange  host-staged: the default"));
  EXPECT_THAT(r.output, HasSubstr("memory    host "));
  EXPECT_THAT(r.output, HasSubstr("run.json, probes.h5, ey_xz.h5, ey_xz.xdmf"));
  EXPECT_FALSE(std::filesystem::exists(out));
  const auto named =
      run_yeex("run --engine host --subdomains 2 --exchange host-staged --dry-run --output " + out.string());
  ASSERT_EQ(named.exit_code, 0) << named.output;
  EXPECT_THAT(named.output, HasSubstr("exchange  host-staged: named with --exchange"));
}

TEST(DryRun, JsonIsOneObjectWithTheDocumentedKeys) {
  ScratchDir dir;
  const auto r = run_yeex_stdout("run --engine host --subdomains 2 --halo-depth 2 --dry-run --json --output " +
                                 (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);  // the whole of stdout
  for (const char* key :
       {"format", "title", "mode", "processes", "engine", "precision", "devices", "peer_access", "grid", "cells",
        "dt_s", "steps", "halo_depth", "slabs", "exchange", "memory_bytes", "output"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["format"], "yeex-plan-1");
  EXPECT_EQ(j["mode"], "threads");
  EXPECT_EQ(j["halo_depth"], 2);
  ASSERT_EQ(j["slabs"].size(), 2u);
  EXPECT_EQ(j["slabs"][0]["z_planes"], nlohmann::json({0, 32}));
  EXPECT_EQ(j["slabs"][1]["stored_planes"], 33);
  EXPECT_EQ(j["exchange"]["name"], "b2r");
  EXPECT_EQ(j["exchange"]["named"], false);
  for (const char* key : {"engines", "setup", "sources", "probes", "staging", "total", "node_total"})
    EXPECT_TRUE(j["memory_bytes"]["host"][key].is_number()) << key;
  for (const char* key : {"fields", "sources", "cpml", "probes", "reserve", "total"})
    EXPECT_TRUE(j["memory_bytes"]["device"][key].is_number()) << key;
  for (const char* key : {"device_free", "available", "cgroup", "cgroup_file", "address_space"})
    EXPECT_TRUE(j["memory_bytes"]["limits"].contains(key)) << key;
  EXPECT_GT(j["memory_bytes"]["host"]["total"].get<std::size_t>(), 0u);
  EXPECT_EQ(j["output"]["files"], nlohmann::json({"run.json", "probes.h5", "ez_xy.h5", "ez_xy.xdmf"}));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(DryRun, SaysWhatForceWouldRemove) {
  ScratchDir dir;
  const auto out = dir / "out";
  ASSERT_EQ(run_yeex("run --engine host --steps 2 --quiet --output " + out.string()).exit_code, 0);
  const auto text = run_yeex("run --engine host --steps 2 --force --dry-run --output " + out.string());
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_THAT(text.output, HasSubstr("--force would remove the 4 file(s) of an earlier run from " + out.string()));
  EXPECT_THAT(text.output, HasSubstr("run.json"));
  const auto json = run_yeex_stdout("run --engine host --steps 2 --force --dry-run --json --output " + out.string());
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_EQ(nlohmann::json::parse(json.output)["output"]["force_removes"],
            nlohmann::json({"ez_xy.h5", "ez_xy.xdmf", "probes.h5", "run.json"}));
  EXPECT_TRUE(std::filesystem::exists(out / "run.json")) << "a dry run removes nothing";
}

// A deck of 10^4 probes: the plan counts their memory (linear in their number and the steps).
// Timing is not asserted; the test's own timeout is the bound.
TEST(DryRun, CountsTenThousandProbes) {
  ScratchDir dir;
  std::string deck = "[grid]\ncells = [20, 20, 20]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 1000\n";
  constexpr int kProbes = 10000;
  for (int p = 0; p < kProbes; ++p)
    deck += "[[probe]]\nname = \"p" + std::to_string(p) + "\"\nposition = [" + std::to_string(1e-3 * (p % 20)) + ", " +
            std::to_string(1e-3 * (p / 20 % 20)) + ", " + std::to_string(1e-3 * (p / 400 % 20)) +
            "]\ncomponents = [\"Ez\", \"Hx\"]\n";
  write_file(dir / "probes.toml", deck);
  const auto r = run_yeex_stdout("run " + (dir / "probes.toml").string() + " --engine host --dry-run --json --output " +
                                 (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  // Rank 0 keeps every series whole: one double a component and step.
  EXPECT_GE(j["memory_bytes"]["host"]["probes"].get<std::size_t>(), std::size_t(kProbes) * 2 * 1000 * 8);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// 10^8 steps: a dry run counts the source samples (a double a step on the host) without
// computing them. Skipped where the host has too little memory for such a run at all.
TEST(DryRun, CountsStepsWithoutWalkingThem) {
  ScratchDir dir;
  write_file(dir / "long.toml",
             "[grid]\ncells = [20, 20, 20]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 100000000\n"
             "[[source]]\npolarisation = \"z\"\nposition = [0.01, 0.01, 0.01]\nwaveform = \"ricker\"\n"
             "frequency = 3e10\n");
  const auto r = run_yeex_stdout("run " + (dir / "long.toml").string() + " --engine host --dry-run --json --output " +
                                 (dir / "out").string());
  if (r.exit_code == 2) GTEST_SKIP() << "too little memory here for the run this plans";
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["steps"], 100000000);
  EXPECT_EQ(j["memory_bytes"]["host"]["sources"].get<std::size_t>(), std::size_t(100000000) * 8);
}

// A deck too large for this process's address space (ulimit -v): exit 2, naming the
// limit and both numbers.
TEST(DryRun, RefusesWhatExceedsTheAddressSpaceLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer maps terabytes of shadow memory: no build with it runs under ulimit -v";
#endif
  ScratchDir dir;
  write_file(dir / "big.toml", "[grid]\ncells = [400, 400, 400]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 10\n");
  const std::string args =
      "run " + (dir / "big.toml").string() + " --engine host --dry-run --output " + (dir / "out").string();
  const auto plan = run_yeex_stdout(args + " --json");
  if (plan.exit_code != 0) GTEST_SKIP() << "too little memory here for this deck at all: " << plan.output;
  ASSERT_GT(nlohmann::json::parse(plan.output)["memory_bytes"]["host"]["total"].get<std::size_t>(), std::size_t(1)
                                                                                                        << 30);
  const auto r = run_program("ulimit -v 1048576 && " + testing::yeex_binary(), args);  // 1 GiB
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("address-space limit (RLIMIT_AS, ulimit -v) is 1.00 GiB"));
  EXPECT_THAT(r.output, HasSubstr("needs about"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(DryRun, RefusalsExitWithCode2) {
  ScratchDir dir;
  const auto r = run_yeex("run --engine host --subdomains 100 --dry-run --json --output " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("cannot be split into 100 slabs"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

}  // namespace
}  // namespace yeex
