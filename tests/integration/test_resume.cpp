// `yeex run --checkpoint-every` and `--resume` on the host engine: a CPML deck with probes and
// snapshots, killed by SIGKILL on two slabs once a checkpoint exists, resumed on three slabs and
// on one, ends with the checksum, probes.h5 and snapshots of a run that never stopped; bad input
// about checkpoints exits 2 and writes nothing. The cuda engine's side is
// tests/gpu/test_resume_gpu.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/resume_run.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::output_differences;
using testing::run_yeex;
using testing::ScratchDir;
using testing::source_path;

// Long enough that the killed run is caught between its checkpoints.
constexpr const char* kSteps = "1200";
constexpr const char* kEvery = "100";

class Resume : public ::testing::Test {
 protected:
  // One uninterrupted run and one killed run (two slabs) for the whole suite.
  static void SetUpTestSuite() {
    dir_ = new ScratchDir;
    const auto whole = run_yeex(deck() + " --engine host --steps " + kSteps + " --quiet --output " + q("whole"));
    ASSERT_EQ(whole.exit_code, 0) << whole.output;
    killed_ = testing::kill_once_file_exists(
        {"run", source_path("inputs/dipole_free_space.toml"), "--engine", "host", "--subdomains", "2", "--steps",
         kSteps, "--checkpoint-every", kEvery, "--quiet", "--output", (*dir_ / "killed").string()},
        *dir_ / "killed.checkpoint" / "checkpoint.h5");
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string deck() { return "run " + source_path("inputs/dipole_free_space.toml"); }
  static std::string q(const std::string& name) { return "'" + (*dir_ / name).string() + "'"; }
  // A copy of the killed run's checkpoint folder, for one resume (a resume that completes removes it).
  static fs::path checkpoint_copy(const std::string& name) {
    fs::copy(*dir_ / "killed.checkpoint", *dir_ / name, fs::copy_options::recursive);
    return *dir_ / name;
  }
  static ScratchDir* dir_;
  static bool killed_;
};
ScratchDir* Resume::dir_ = nullptr;
bool Resume::killed_ = false;

TEST_F(Resume, AKilledRunLeavesItsCheckpointAndNoOutput) {
  ASSERT_TRUE(killed_) << "the run was not caught between checkpoints";
  EXPECT_TRUE(fs::exists(*dir_ / "killed.checkpoint" / "checkpoint.h5"));
  EXPECT_FALSE(fs::exists(*dir_ / "killed"));
}

TEST_F(Resume, OnThreeSlabsEndsAsTheUninterruptedRun) {
  ASSERT_TRUE(killed_);
  const fs::path from = checkpoint_copy("three.checkpoint");
  const auto r =
      run_yeex("run --resume '" + from.string() + "' --engine host --subdomains 3 --quiet --output " + q("three"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(output_differences(*dir_ / "whole", *dir_ / "three"), "");
  EXPECT_FALSE(fs::exists(from)) << "a completed run removes the checkpoint it resumed from";
}

// Without --output the run goes where the killed one would have; its checkpoints go on into the
// folder it resumed from, which the completed run removes.
TEST_F(Resume, OnOneSlabIntoTheOriginalFolder) {
  ASSERT_TRUE(killed_);
  const fs::path from = checkpoint_copy("one.checkpoint");
  const auto r = run_yeex("run --resume '" + from.string() + "' --engine host --subdomains 1 --exchange host-staged");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(output_differences(*dir_ / "whole", *dir_ / "killed"), "");
  EXPECT_FALSE(fs::exists(from));
  fs::remove_all(*dir_ / "killed");
}

TEST_F(Resume, OnTwoSlabsOfHaloDepthTwo) {
  ASSERT_TRUE(killed_);
  const fs::path from = checkpoint_copy("b2r.checkpoint");
  const auto r = run_yeex("run --resume '" + from.string() + "' --engine host --subdomains 2 --halo-depth 2 --quiet " +
                          "--output " + q("b2r"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(output_differences(*dir_ / "whole", *dir_ / "b2r"), "");
}

// Each refusal: exit 2, the message names the problem, no output folder, no checkpoint written.
TEST_F(Resume, BadInputExitsTwoAndWritesNothing) {
  ASSERT_TRUE(killed_);
  const fs::path from = checkpoint_copy("bad.checkpoint");
  const std::string resume = "run --resume '" + from.string() + "' --engine host --output " + q("bad-out");
  fs::create_directories(*dir_ / "truncated");
  fs::copy_file(from / "checkpoint.h5", *dir_ / "truncated" / "checkpoint.h5");
  fs::resize_file(*dir_ / "truncated" / "checkpoint.h5", fs::file_size(from / "checkpoint.h5") / 3);
  fs::create_directories(*dir_ / "taken.checkpoint");
  fs::copy_file(from / "checkpoint.h5", *dir_ / "taken.checkpoint" / "checkpoint.h5");
  const std::string fresh = deck() + " --engine host --output " + q("bad-out");
  const std::vector<std::pair<std::string, std::string>> cases{
      {fresh + " --checkpoint-every 0", "--checkpoint-every '0'"},
      {fresh + " --checkpoint-every 10x", "--checkpoint-every '10x'"},
      {fresh + " --checkpoint-every 1.5h", "a wall time (90s, 30m, 2h)"},
      {fresh + " --checkpoint-dir " + q("x"), "--checkpoint-dir needs --checkpoint-every"},
      {deck() + " --engine host --checkpoint-every 10 --output " + q("taken"),
       "holds the checkpoint of an earlier run"},
      {"run --resume " + q("nowhere") + " --engine host --output " + q("bad-out"), "no such file"},
      {"run --resume " + q("truncated") + " --engine host --output " + q("bad-out"), "truncated"},
      {resume + " --precision f64", "holds f32 fields"},
      {resume + " " + source_path("inputs/dipole_box.toml"), "holds a grid of 48 x 48 x 48 cells"},
      {resume + " --steps 10", "--steps 10 with --resume"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_yeex(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(message)) << args;
    EXPECT_FALSE(fs::exists(*dir_ / "bad-out")) << args;
    EXPECT_FALSE(fs::exists(*dir_ / "bad-out.checkpoint")) << args;
    EXPECT_FALSE(fs::exists(*dir_ / "x")) << args;
  }
  EXPECT_TRUE(fs::exists(from / "checkpoint.h5")) << "a refused resume leaves its checkpoint";
}

TEST_F(Resume, DryRunListsTheCheckpointAndItsMemory) {
  const auto text = run_yeex(deck() + " --engine host --dry-run --checkpoint-every 30m --output " + q("dry"));
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_THAT(text.output, HasSubstr("dry.checkpoint/checkpoint.h5, every 1800 s"));
  EXPECT_THAT(text.output, HasSubstr(", checkpoint "));
  const auto json = run_yeex(deck() + " --engine host --dry-run --json --checkpoint-every 50 --output " + q("dry"));
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto plan = nlohmann::json::parse(json.output);
  EXPECT_EQ(plan["checkpoint"]["every_steps"], 50);
  // One component over the 49^3 nodes in f32 at least.
  EXPECT_GT(plan["memory_bytes"]["host"]["checkpoint"].get<std::size_t>(), std::size_t(49 * 49 * 49 * 4));
  EXPECT_FALSE(fs::exists(*dir_ / "dry.checkpoint"));
}

}  // namespace
}  // namespace yeex
