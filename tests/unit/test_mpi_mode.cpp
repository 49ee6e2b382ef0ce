// MPI mode's pieces that need no MPI: launch detection, the argument hash every rank compares,
// the agreement on problems (with the one-process group), and which backends each mode allows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "io/deck.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/process_group.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;

MpiLaunch launch_with(const std::map<std::string, std::string>& env) {
  return detect_mpi_launch([&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(MpiLaunch, NoLauncherMeansThreadsMode) {
  EXPECT_FALSE(launch_with({}).launched);
  EXPECT_FALSE(launch_with({{"SLURM_NTASKS", "4"}, {"SLURM_PROCID", "0"}}).launched) << "an allocation is not a launch";
}

TEST(MpiLaunch, ReadsEachLaunchersVariables) {
  const MpiLaunch ompi = launch_with({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "2"}});
  EXPECT_TRUE(ompi.launched);
  EXPECT_EQ(ompi.size, 4);
  EXPECT_EQ(ompi.rank, 2);
  EXPECT_EQ(ompi.variable, "OMPI_COMM_WORLD_SIZE");
  const MpiLaunch hydra = launch_with({{"PMI_SIZE", "8"}, {"PMI_RANK", "7"}});
  EXPECT_EQ(hydra.size, 8);
  EXPECT_EQ(hydra.rank, 7);
  const MpiLaunch pmix = launch_with({{"PMIX_RANK", "1"}});
  EXPECT_TRUE(pmix.launched);
  EXPECT_EQ(pmix.size, 0) << "PMIx alone does not say the size";
  EXPECT_EQ(pmix.rank, 1);
  EXPECT_EQ(launch_with({{"OMPI_COMM_WORLD_SIZE", "1"}, {"OMPI_COMM_WORLD_RANK", "0"}}).size, 1);
}

TEST(MpiLaunch, IgnoresValuesThatAreNotCounts) {
  EXPECT_FALSE(launch_with({{"PMI_SIZE", "four"}}).launched);
  EXPECT_FALSE(launch_with({{"PMI_SIZE", ""}}).launched);
  EXPECT_FALSE(launch_with({{"OMPI_COMM_WORLD_SIZE", "-3"}}).launched);
}

TEST(CommandLineHash, SameArgumentsSameHashAnythingElseDiffers) {
  const std::vector<std::string> a{"run", "deck.toml", "--steps", "10"};
  EXPECT_EQ(command_line_hash(a), command_line_hash({"run", "deck.toml", "--steps", "10"}));
  EXPECT_NE(command_line_hash(a), command_line_hash({"run", "deck.toml", "--steps", "11"}));
  EXPECT_NE(command_line_hash(a), command_line_hash({"run", "--steps", "10", "deck.toml"})) << "order counts";
  EXPECT_NE(command_line_hash({"a b"}), command_line_hash({"a", "b"})) << "argument boundaries count";
  EXPECT_NE(command_line_hash({"ab"}), command_line_hash({"a", "b"}));
  EXPECT_NE(command_line_hash({}), command_line_hash({""}));
}

TEST(GpuSharing, TwoRanksOfOneNodeOnOneGpuAreFound) {
  const auto entry = gpu_placement_entry;
  // Two nodes with two GPUs each, one rank per GPU: fine, although node 2 reuses the bus ids.
  EXPECT_FALSE(shared_gpu({entry(0, "0000:18:00.0", "a"), entry(0, "0000:2a:00.0", "a"), entry(2, "0000:18:00.0", "b"),
                           entry(2, "0000:2a:00.0", "b")}));
  // Per-rank CUDA_VISIBLE_DEVICES: each rank's GPU 0 is another device, which the bus id tells.
  EXPECT_FALSE(shared_gpu({entry(0, "0000:18:00.0", "a"), entry(0, "0000:2a:00.0", "a")}));
  const auto why =
      shared_gpu({entry(0, "0000:18:00.0", "a"), entry(0, "0000:2a:00.0", "a"), entry(0, "0000:18:00.0", "a")});
  ASSERT_TRUE(why);
  EXPECT_THAT(*why, HasSubstr("ranks 0 and 2 on a would share one GPU (0000:18:00.0)"));
  EXPECT_THAT(*why, HasSubstr("--oversubscribe-gpus"));
}

TEST(SingleProcessGroup, CollectivesAreTheProcessAlone) {
  const SingleProcessGroup one;
  EXPECT_EQ(one.rank(), 0);
  EXPECT_EQ(one.size(), 1);
  EXPECT_EQ(broadcast_string(one, "deck text"), "deck text");
  EXPECT_EQ(broadcast_u64(one, 42), 42u);
  EXPECT_EQ(gather_strings(one, "mine"), std::vector<std::string>{"mine"});
  EXPECT_EQ(one.max(2.5), 2.5);
  EXPECT_NE(one.first(1), nullptr);
  EXPECT_EQ(one.first(0), nullptr);
  EXPECT_THROW(send_u64(one, 1, 1, 0), std::logic_error);
}

TEST(GroupProblem, TheProblemComesBackWithItsRankCodeAndMessage) {
  const SingleProcessGroup one;
  EXPECT_FALSE(first_problem(one, std::nullopt));
  const auto p = first_problem(one, GroupProblem{0, 2, "grid.cells: must be positive (with spaces)"});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->rank, 0);
  EXPECT_EQ(p->exit_code, 2);
  EXPECT_EQ(p->message, "grid.cells: must be positive (with spaces)");
}

GroupProblem problem_of(const std::function<void()>& f) {
  try {
    f();
  } catch (...) {
    return describe_current_exception(0);
  }
  return {};
}

TEST(GroupProblem, ExitCodesFollowTheCli) {
  EXPECT_EQ(problem_of([] { throw DeckError("grid.cells", "must be positive"); }).exit_code, 2);
  EXPECT_THAT(problem_of([] { throw DeckError("grid.cells", "must be positive"); }).message,
              HasSubstr("error in deck: grid.cells"));
  EXPECT_EQ(problem_of([] { throw UsageError("--steps must be at least 1"); }).exit_code, 2);
  const GroupProblem failed = problem_of([] { throw std::runtime_error("out of memory"); });
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_EQ(failed.message, "run failed: out of memory");
  try {
    throw std::runtime_error("device lost");
  } catch (...) {
    EXPECT_THAT(describe_current_exception(3).message, HasSubstr("rank 3 on ")) << "other ranks name themselves";
  }
}

TEST(Agreed, ThreadsModeJustRunsTheStage) {
  EXPECT_EQ(agreed(nullptr, [] { return 7; }), 7);
  EXPECT_THROW(agreed(nullptr, [] { throw UsageError("bad"); }), UsageError);
  int calls = 0;
  agreed(nullptr, [&] { ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(Agreed, AGroupOfOneReportsAndExitsWithTheCode) {
  const SingleProcessGroup one;
  EXPECT_EQ(agreed(&one, [] { return 7; }), 7);
  try {
    agreed(&one, [] { throw DeckError("time.steps", "must be positive"); });
    FAIL() << "no AgreedExit";
  } catch (const AgreedExit& e) {
    EXPECT_EQ(e.code(), 2);
  }
  try {
    agreed(&one, [] { throw std::runtime_error("no device"); });
    FAIL() << "no AgreedExit";
  } catch (const AgreedExit& e) {
    EXPECT_EQ(e.code(), 1);
  }
}

TEST(ExchangeModes, ThreadsBackendsRefuseMpiModeAndTheOtherWayRound) {
  ExchangeRequest threads{"host", {}, 2, 1, true, false};
  ExchangeRequest mpi = threads;
  mpi.mpi_mode = true;
  EXPECT_EQ(exchange_unavailable("host-staged", threads), "");
  EXPECT_THAT(exchange_unavailable("host-staged", mpi), HasSubstr("threads mode only"));
  EXPECT_THAT(exchange_unavailable("b2r", mpi), HasSubstr("threads mode only"));
  EXPECT_THAT(exchange_unavailable("mpi", threads), HasSubstr(mpi_built() ? "mpirun" : "no MPI"));
  if (mpi_built()) {
    EXPECT_EQ(exchange_unavailable("mpi", mpi), "");
    mpi.halo_depth = 3;
    EXPECT_EQ(exchange_unavailable("mpi", mpi), "") << "B+2R depth composes with the transport";
    EXPECT_EQ(default_exchange(mpi), "mpi") << "host engine: nccl cannot run";
  } else {
    EXPECT_THAT(exchange_unavailable("mpi", mpi), HasSubstr("no MPI"));
  }
  bool listed = false;
  for (const auto& e : exchange_catalogue())
    if (e.name == "mpi") listed = e.mpi_mode && !e.threads_mode;
  EXPECT_TRUE(listed);
}

// A build without MPI started by a launcher (here: its environment, faked) must not run the
// whole model once per process: exit code 2, one message from rank 0, silence from the others.
TEST(MpiLaunch, ABuildWithoutMpiRefusesToRunUnderMpirun) {
  if (mpi_built()) GTEST_SKIP() << "this build has MPI mode (the tests labelled mpi run it)";
  const auto rank0 =
      testing::run_program("OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 " + std::string(YEEX_BINARY), "engines");
  EXPECT_EQ(rank0.exit_code, 2);
  EXPECT_THAT(rank0.output, HasSubstr("this build has no MPI mode"));
  const auto rank1 =
      testing::run_program("OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 " + std::string(YEEX_BINARY), "engines");
  EXPECT_EQ(rank1.exit_code, 2);
  EXPECT_EQ(rank1.output, "");
  const auto alone =
      testing::run_program("OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 " + std::string(YEEX_BINARY), "engines");
  EXPECT_EQ(alone.exit_code, 0) << "mpirun -np 1: one process, threads mode";
}

}  // namespace
}  // namespace yeex
