// Checkpoint and resume on the cuda engine: a CPML deck with probes and snapshots killed by
// SIGKILL on one GPU and on two once a checkpoint exists, resumed on the other GPU count (and on
// the same, over other backends), ends with the checksum, probes.h5 and snapshots of an
// uninterrupted cuda run. The host engine's side is tests/integration/test_resume.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_engine.hpp"
#include "tests/support/resume_run.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

namespace fs = std::filesystem;
using testing::output_differences;
using testing::run_yeex;
using testing::ScratchDir;
using testing::source_path;

// A GPU runs the 48^3 deck fast: many steps, so that the run is caught between checkpoints.
constexpr const char* kSteps = "12000";
constexpr const char* kEvery = "1000";

std::string deck() { return source_path("inputs/dipole_free_space.toml"); }

class ResumeGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
    const auto whole = run_yeex("run " + deck() + " --engine cuda --gpus 1 --steps " + kSteps + " --quiet --output '" +
                                (dir_ / "whole").string() + "'");
    ASSERT_EQ(whole.exit_code, 0) << whole.output;
  }
  // Kills a run on `gpus` GPUs once its first checkpoint exists; the checkpoint's folder.
  fs::path killed_on(int gpus) {
    const std::string name = "killed" + std::to_string(gpus);
    const bool caught = testing::kill_once_file_exists(
        {"run", deck(), "--engine", "cuda", "--gpus", std::to_string(gpus), "--steps", kSteps, "--checkpoint-every",
         kEvery, "--quiet", "--output", (dir_ / name).string()},
        dir_ / (name + ".checkpoint") / "checkpoint.h5");
    EXPECT_TRUE(caught) << "the run on " << gpus << " GPU(s) was not caught between checkpoints";
    EXPECT_FALSE(fs::exists(dir_ / name));
    return dir_ / (name + ".checkpoint");
  }
  // Resumes a copy of `checkpoint` with `options`; the differences from the uninterrupted run.
  std::string resumed(const fs::path& checkpoint, const std::string& options, const std::string& name) {
    fs::copy(checkpoint, dir_ / (name + ".from"), fs::copy_options::recursive);
    const auto r = run_yeex("run --resume '" + (dir_ / (name + ".from")).string() + "' --engine cuda " + options +
                            " --quiet --output '" + (dir_ / name).string() + "'");
    if (r.exit_code != 0) return "exit " + std::to_string(r.exit_code) + ": " + r.output;
    return output_differences(dir_ / "whole", dir_ / name);
  }
  ScratchDir dir_;
};

TEST_F(ResumeGpu, OneGpuKilledResumedOnOneAndOnTwo) {
  const fs::path checkpoint = killed_on(1);
  ASSERT_TRUE(fs::exists(checkpoint / "checkpoint.h5"));
  EXPECT_EQ(resumed(checkpoint, "--gpus 1", "one"), "");
  if (cuda_device_count() < 2) GTEST_SKIP() << "one GPU: the resume on two is not run";
  EXPECT_EQ(resumed(checkpoint, "--gpus 2", "two"), "");
  EXPECT_EQ(resumed(checkpoint, "--gpus 2 --exchange graph", "graph"), "");
  EXPECT_EQ(resumed(checkpoint, "--gpus 2 --exchange coop", "coop"), "");
  EXPECT_EQ(resumed(checkpoint, "--gpus 2 --halo-depth 2", "b2r"), "");
}

TEST_F(ResumeGpu, TwoGpusKilledResumedOnOne) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  const fs::path checkpoint = killed_on(2);
  ASSERT_TRUE(fs::exists(checkpoint / "checkpoint.h5"));
  EXPECT_EQ(resumed(checkpoint, "--gpus 1", "one"), "");
  EXPECT_EQ(resumed(checkpoint, "--gpus 2 --exchange p2p", "p2p"), "");
  EXPECT_EQ(resumed(checkpoint, "--gpus 1 --subdomains 3", "three_on_one"), "");
}

}  // namespace
}  // namespace yeex
