// The cuda engine's bad input as a user meets it: too many GPUs, a GPU listed twice or missing, a
// backend that cannot run here (peer access turned off, more slabs than coop's grids can keep
// resident, nccl with two slabs on one GPU), a deck too big for the GPU, bench slabs sharing a
// GPU. Each exits 2 with a message naming the problem and writes nothing; nothing hangs. The
// CPU side of the same contract is tests/integration/test_cli.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_engine.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;
using testing::run_yeex;
using testing::ScratchDir;
using testing::write_file;

struct Refusal {
  std::string arguments;  // DECK, BIG and OUT are replaced
  std::string message;
};

// A deck of `nz` planes of 16 x 16 cells, 4 steps.
std::string small_deck(int nz) {
  return "[grid]\ncells = [16, 16, " + std::to_string(nz) + "]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 4\n";
}

TEST(GpuCli, RefusesWhatCannotRunHereWithExitCode2AndNoOutput) {
  const int visible = cuda_device_count();
  ASSERT_GE(visible, 1) << "a gpu test needs a GPU";
  ScratchDir dir;
  write_file(dir / "deck.toml", small_deck(200));
  // 3000^3 cells: 27e9, about 0.7 TB in float, more than any one GPU holds.
  write_file(dir / "big.toml",
             "[grid]\ncells = [3000, 3000, 3000]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 4\n");
  const std::string n = std::to_string(visible);
  std::vector<Refusal> cases{
      {"run DECK --engine cuda --gpus " + std::to_string(visible + 1) + " --output OUT",
       "only " + n + " GPU(s) visible"},
      {"run DECK --engine cuda --devices " + n + " --output OUT", "GPU " + n + " does not exist"},
      {"run DECK --engine cuda --devices 0,0 --output OUT", "GPU 0 is listed twice"},
      {"run BIG --engine cuda --gpus 1 --output OUT", "available"},
      {"run DECK --engine cuda --gpus 1 --subdomains 2 --no-peer --exchange coop --output OUT", "--no-peer"},
      {"run DECK --engine cuda --gpus 1 --subdomains 2 --no-peer --exchange overlap --output OUT", "--no-peer"},
      {"run DECK --engine cuda --gpus 1 --subdomains 200 --exchange coop --output OUT", "cannot all be resident"},
      {"run DECK --engine cuda --gpus 1 --subdomains 2 --exchange nccl --output OUT", "one GPU per subdomain"},
      {"run DECK --engine cuda --gpus 1 --subdomains 2 --exchange graph --output OUT", "one GPU per subdomain"},
      {"run DECK --engine cuda --gpus 1 --subdomains 2 --no-peer --exchange graph --output OUT", "--no-peer"},
      {"run DECK --engine cuda --gpus 1 --subdomains 2 --exchange p2p --halo-depth 2 --output OUT",
       "--halo-depth 1 only"},
      {"run DECK --engine cuda --gpus 1 --subdomains 100 --exchange b2r --halo-depth 3 --output OUT", "halo depth"},
      {"run DECK --engine cuda --gpus 1 --oversubscribe-gpus --output OUT", "--oversubscribe-gpus is for MPI mode"},
      {"bench --engine cuda --gpus 1 --subdomains 2 --size 16 --json OUT/b.json", "leave --subdomains out"},
      {"bench --engine cuda --gpus 1 --size 16 --counts 2 --json OUT/b.json", "--counts 2"},
      {"validate --quick --engine cuda --gpus 1 --subdomains 2 --no-peer --exchange coop --json OUT/v.json",
       "--no-peer"}};
  for (Refusal c : cases) {
    const auto out = dir / "out";
    for (auto [from, to] : {std::pair<std::string, std::string>{"DECK", (dir / "deck.toml").string()},
                            {"BIG", (dir / "big.toml").string()},
                            {"OUT", out.string()}})
      for (auto at = c.arguments.find(from); at != std::string::npos; at = c.arguments.find(from))
        c.arguments.replace(at, from.size(), to);
    const auto r = testing::run_program("timeout 120 " + testing::yeex_binary(), c.arguments);  // never a hang
    EXPECT_EQ(r.exit_code, 2) << c.arguments << "\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(c.message)) << c.arguments;
    EXPECT_FALSE(std::filesystem::exists(out)) << "a refused run writes nothing: " << c.arguments;
  }
}

// yeex-p2p: a test named with --test that the GPUs chosen cannot run is bad input (exit 2), before
// any measurement; a --json that is a folder likewise.
TEST(GpuCli, P2PRefusesATestTheGpusCannotRun) {
  const std::string p2p = (std::filesystem::path(testing::yeex_binary()).parent_path() / "yeex-p2p").string();
  ScratchDir dir;
  const auto folder =
      testing::run_program("timeout 120 " + p2p, "--test host-staged --size 1M --json " + dir.path().string());
  EXPECT_EQ(folder.exit_code, 2) << folder.output;
  EXPECT_THAT(folder.output, HasSubstr("names a folder"));
  const auto one = testing::run_program("timeout 120 " + p2p, "--test ce-unidir --devices 0 --size 1M");
  EXPECT_EQ(one.exit_code, 2) << one.output;
  EXPECT_THAT(one.output, HasSubstr("--test ce-unidir cannot run here: needs 2 GPUs, 1 selected"));
  EXPECT_THAT(one.output, ::testing::Not(HasSubstr("# yeex-p2p"))) << "refused before the report starts";
}

// What the same options run when they can: the refusals above are not a broken cuda path.
TEST(GpuCli, TheSameSplitsRunWhereTheyCan) {
  ScratchDir dir;
  write_file(dir / "deck.toml", small_deck(32));
  for (const std::string split : {"--gpus 1", "--devices 0", "--gpus 1 --subdomains 2 --exchange coop",
                                  "--gpus 1 --subdomains 2 --no-peer --exchange host-staged",
                                  "--gpus 1 --subdomains 4 --exchange b2r --halo-depth 3", "--gpus 1 --exchange graph",
                                  "--gpus 1 --exchange graph --halo-depth 2"}) {
    const auto r = run_yeex("run " + (dir / "deck.toml").string() + " --engine cuda --quiet --force " + split +
                            " --output " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 0) << split << "\n" << r.output;
  }
}

// bench times each repeat by CUDA events on every GPU (Engine::stamp): they lie within the host's
// clock around the repeat, and not far below it (a unit slip would put them 1000 times off). With
// --verify every backend on 1 and all GPUs, strong and weak, gives its grid's first row's fields
// after the warm-up (coop's node pairs, graph's recorded steps, b2r at R = 2 included).
TEST(GpuCli, BenchTimesRepeatsByCudaEventsAndVerifiesTheBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  ScratchDir out;
  const int gpus = cuda_device_count();  // --counts takes each count once
  const auto bench = run_yeex(
      "bench --engine cuda --size 128 --counts " + (gpus > 1 ? "1," + std::to_string(gpus) : std::string("1")) +
      " --scaling both --steps 20 --warmup 5 --repeats 3 --verify --json " + (out / "bench.json").string());
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_THAT(bench.output, HasSubstr("(CUDA events, the slowest GPU)"));
  int verified = 0;
  const auto j = testing::read_json(out / "bench.json");  // kept: a range over a temporary's member would dangle
  for (const auto& row : j["rows"]) {
    if (row["skipped"] != "") continue;
    const double events = row["seconds_per_step_median"], host = row["host_clock_seconds_per_step_median"];
    EXPECT_LE(events, host) << row.dump();
    EXPECT_GT(events, 0.5 * host) << row.dump();
    EXPECT_TRUE(row["bits"] == "first" || row["bits"] == "same") << row.dump();
    ++verified;
  }
  EXPECT_GE(verified, 7) << "the engine and every threads-mode backend on one GPU at least";
}

}  // namespace
}  // namespace yeex
