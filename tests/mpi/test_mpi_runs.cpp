// MPI mode end to end: `mpirun -np N yeex ...` with the host engine on this machine (ranks
// oversubscribe its cores). Every run must give the checksums, probes and snapshots of the
// single-process run; bad input must stop every rank with exit code 2 and one message; a rank
// that fails must stop the job, never hang it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "io/probe_writer.hpp"
#include "io/snapshot_writer.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;
using testing::read_json;
using testing::run_program;
using testing::ScratchDir;
using testing::source_path;
using testing::write_file;

// Open MPI refuses root without these (CI runs as root); oversubscribed ranks must not be bound
// to cores; one OpenMP thread per rank keeps the machine's few cores from thrashing.
class MpiEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);  // containers often forbid CMA
    setenv("OMP_NUM_THREADS", "1", 1);
  }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new MpiEnvironment);

bool open_mpi() {
  static const bool is = [] {
    const std::string version = run_program(YEEX_MPIEXEC, "--version").output;  // "mpiexec (OpenRTE) 4.1.4 ..."
    return version.find("Open MPI") != std::string::npos || version.find("OpenRTE") != std::string::npos;
  }();
  return is;
}

// `mpirun -np N yeex ARGS`, killed after two minutes (a hang fails the test instead of CI).
struct Timed {
  testing::CommandResult result;
  double seconds = 0;
};
Timed mpirun(int ranks, const std::string& args) {
  const std::string flags = open_mpi() ? " --oversubscribe --bind-to none" : "";
  const auto t0 = std::chrono::steady_clock::now();
  Timed t;
  t.result = run_program(
      "timeout -k 5 120 " + std::string(YEEX_MPIEXEC),
      std::string(YEEX_MPIEXEC_NUMPROC_FLAG) + " " + std::to_string(ranks) + flags + " " + YEEX_BINARY + " " + args);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// run.json of a single-process run of `args` (one slab: the reference), cached per args.
const nlohmann::json& reference(const std::string& args) {
  static std::map<std::string, nlohmann::json> cache;
  static ScratchDir dir;
  if (!cache.count(args)) {
    const auto out = dir / ("ref" + std::to_string(cache.size()));
    const auto r = testing::run_yeex("run " + args + " --quiet --output " + out.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    cache[args] = read_json(out / "run.json");
  }
  return cache[args];
}

struct Split {
  int ranks;
  int halo_depth;
  std::string precision;
  std::string deck = "";  // under inputs/; empty: the built-in deck
};

class MpiRun : public ::testing::TestWithParam<Split> {};

TEST_P(MpiRun, GivesTheChecksumsOfOneProcess) {
  const Split& p = GetParam();
  const std::string args = (p.deck.empty() ? "" : source_path("inputs/" + p.deck) + " ") +
                           "--engine host --steps 40 --precision " + p.precision;
  ScratchDir out;
  const auto run = mpirun(p.ranks, "run " + args + " --exchange mpi --halo-depth " + std::to_string(p.halo_depth) +
                                       " --quiet --output " + out.path().string());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
  const auto mine = read_json(out / "run.json");
  EXPECT_EQ(mine["checksum"], reference(args)["checksum"]) << "every component, bit for bit";
  EXPECT_EQ(mine["run"]["mode"], "mpi");
  EXPECT_EQ(mine["run"]["subdomains"], p.ranks);
  EXPECT_EQ(mine["run"]["halo_depth"], p.halo_depth);
  EXPECT_EQ(mine["run"]["exchange"], "mpi");
  EXPECT_EQ(mine["run"]["exchange_choices"], "") << "mpi chooses nothing while it runs";
  ASSERT_EQ(mine["mpi"]["by_rank"].size(), static_cast<std::size_t>(p.ranks));
  for (int r = 0; r < p.ranks; ++r) {
    EXPECT_EQ(mine["mpi"]["by_rank"][r]["rank"], r);
    EXPECT_FALSE(mine["mpi"]["by_rank"][r]["host"].get<std::string>().empty());
  }
  EXPECT_EQ(mine["mpi"]["halo_path"], "host memory");
}

INSTANTIATE_TEST_SUITE_P(
    Ranks, MpiRun,
    ::testing::Values(Split{2, 1, "f32"}, Split{3, 1, "f32"}, Split{4, 1, "f32"}, Split{2, 2, "f32"},
                      Split{3, 3, "f32"}, Split{4, 2, "f32"}, Split{3, 2, "f64"},
                      // CPML on every face: psi travels with the B+2R planes
                      Split{2, 1, "f32", "dipole_free_space.toml"}, Split{2, 2, "f32", "dipole_free_space.toml"},
                      Split{3, 1, "f32", "dipole_free_space.toml"}, Split{3, 2, "f32", "dipole_free_space.toml"},
                      Split{4, 3, "f64", "dipole_free_space.toml"},
                      // Debye soil across the slab boundaries, in CPML: its pole
                      // state travels with the B+2R E planes
                      Split{2, 1, "f32", "gpr_wet_soil.toml"}, Split{2, 2, "f32", "gpr_wet_soil.toml"},
                      Split{3, 1, "f32", "gpr_wet_soil.toml"}, Split{3, 2, "f32", "gpr_wet_soil.toml"}),
    [](const auto& info) {
      const std::string& deck = info.param.deck;
      return std::to_string(info.param.ranks) + "ranks_R" + std::to_string(info.param.halo_depth) + "_" +
             info.param.precision +
             (deck.empty()              ? ""
              : deck.starts_with("gpr") ? "_dispersive"
                                        : "_cpml");
    });

TEST(MpiOutput, ProbesAndSnapshotsAcrossRanksEqualTheSingleProcessFiles) {
  // Two probes in different slabs, a volume snapshot of three components every 100 steps.
  const std::string deck = source_path("inputs/dielectric_slab_probe.toml");
  ScratchDir one, three;
  const auto single = testing::run_yeex("run " + deck + " --engine host --quiet --output " + one.path().string());
  ASSERT_EQ(single.exit_code, 0) << single.output;
  const auto split =
      mpirun(3, "run " + deck + " --engine host --halo-depth 2 --quiet --output " + three.path().string());
  ASSERT_EQ(split.result.exit_code, 0) << split.result.output;

  EXPECT_EQ(read_json(one / "run.json")["files"], read_json(three / "run.json")["files"]);
  const ProbeFile a = read_probe_file(one / "probes.h5"), b = read_probe_file(three / "probes.h5");
  ASSERT_EQ(a.probes.size(), b.probes.size());
  for (std::size_t p = 0; p < a.probes.size(); ++p) {
    EXPECT_EQ(a.probes[p].name, b.probes[p].name);
    EXPECT_EQ(a.probes[p].series, b.probes[p].series) << a.probes[p].name << ": every sample, bit for bit";
  }
  for (Index step : {100, 200})
    for (Component c : {Component::Ex, Component::Ey, Component::Ez})
      EXPECT_EQ(read_snapshot_dataset(one / "e_volume.h5", step, c),
                read_snapshot_dataset(three / "e_volume.h5", step, c))
          << "step " << step << " " << component_name(c);
  std::ifstream xa(one / "e_volume.xdmf"), xb(three / "e_volume.xdmf");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(xa), {}), std::string(std::istreambuf_iterator<char>(xb), {}))
      << "one XDMF describing the whole volume";
  for (const auto& entry : std::filesystem::directory_iterator(three.path()))
    EXPECT_THAT(entry.path().filename().string(), ::testing::Not(HasSubstr("partial")));
}

TEST(MpiBench, PrintsOneTableWithTheBaselineMeasuredOnRankZero) {
  ScratchDir out;
  const auto bench =
      mpirun(2,
             "bench --engine host --size 16 --counts 1,2 --scaling both --steps 2 --warmup 1 --repeats 1 "
             "--json " +
                 (out / "bench.json").string());
  ASSERT_EQ(bench.result.exit_code, 0) << bench.result.output;
  EXPECT_EQ(occurrences(bench.result.output, "# yeex bench"), 1) << bench.result.output;
  EXPECT_THAT(bench.result.output, HasSubstr("MPI mode: 2 ranks"));
  const auto j = read_json(out / "bench.json");
  EXPECT_EQ(j["format"], "yeex-bench-2");
  EXPECT_EQ(j["mode"], "mpi");
  // The MPI-mode backends by default: nccl (skipped, with the reason, on the host engine) and mpi.
  ASSERT_GE(j["rows"].size(), 5u) << "the baseline, then strong and weak for nccl and mpi on 2 ranks";
  EXPECT_EQ(j["rows"][0]["exchange"], "-");
  int on_two_ranks = 0;
  for (const auto& row : j["rows"]) {
    if (row["exchange"] == "nccl") EXPECT_THAT(row["skipped"].get<std::string>(), HasSubstr("nccl"));
    if (row["exchange"] != "mpi") continue;
    on_two_ranks += row["devices"] == 2;
    EXPECT_EQ(row["skipped"], "");
    EXPECT_GT(row["efficiency"].get<double>(), 0.0);
  }
  EXPECT_EQ(on_two_ranks, 2) << "strong and weak";
  EXPECT_EQ(j["mpi"]["by_rank"].size(), 2u);
}

TEST(MpiBench, HaloDepthComposesWithTheTransport) {
  const auto bench = mpirun(3,
                            "bench --engine host --size 12 --counts 1,3 --exchanges mpi --halo-depth 2 --steps 2 "
                            "--warmup 1 --repeats 1 --csv");
  ASSERT_EQ(bench.result.exit_code, 0) << bench.result.output;
  EXPECT_THAT(bench.result.output, HasSubstr("strong,12,12,12,12,mpi,3,2,"));
}

TEST(MpiExchangeList, ShowsWhatRunsInMpiModeOnce) {
  const auto list = mpirun(2, "exchanges --engine host");
  ASSERT_EQ(list.result.exit_code, 0) << list.result.output;
  EXPECT_EQ(occurrences(list.result.output, "MPI mode (2 ranks)"), 1) << list.result.output;
  EXPECT_THAT(list.result.output, ::testing::ContainsRegex("\nmpi +yes"));
  EXPECT_THAT(list.result.output, ::testing::ContainsRegex("\nhost-staged +no .*threads mode only"));
}

// ---- bad input and faults: every rank stops, quickly, with one message ----

struct BadRun {
  std::string name;
  int ranks;
  std::string deck;       // written to DECK when not empty
  std::string arguments;  // after "yeex"; DECK and OUT are replaced
  std::string message;
};

class MpiRefuses : public ::testing::TestWithParam<BadRun> {};

TEST_P(MpiRefuses, WithExitCode2AndOneMessage) {
  const BadRun& c = GetParam();
  ScratchDir dir;
  const auto deck = dir / "deck.toml";
  if (!c.deck.empty()) write_file(deck, c.deck);
  const auto out = dir / "out";
  std::string args = c.arguments;
  for (auto [from, to] : {std::pair<std::string, std::string>{"DECK", deck.string()}, {"OUT", out.string()}})
    for (auto at = args.find(from); at != std::string::npos; at = args.find(from)) args.replace(at, from.size(), to);
  const auto run = mpirun(c.ranks, args);
  EXPECT_EQ(run.result.exit_code, 2) << run.result.output;
  EXPECT_EQ(occurrences(run.result.output, c.message), 1) << run.result.output;
  EXPECT_FALSE(std::filesystem::exists(out)) << "a refused run must write nothing";
  EXPECT_LT(run.seconds, 60.0);
}

const char* kDeck = "[grid]\ncells = [12, 12, 12]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 5\n";

INSTANTIATE_TEST_SUITE_P(
    Mpi, MpiRefuses,
    ::testing::Values(
        BadRun{"MalformedDeck", 3, "[grid\ncells = [1,2,3]\n", "run DECK --engine host --output OUT",
               "TOML syntax error"},
        BadRun{"InvalidDeck", 2, std::string(kDeck) + "courant = 1.5\n", "run DECK --engine host --output OUT",
               "time.courant"},
        BadRun{"MissingDeck", 3, "", "run /nonexistent/deck.toml --engine host --output OUT", "cannot read deck file"},
        BadRun{"ThreadsBackend", 2, kDeck, "run DECK --engine host --exchange host-staged --output OUT",
               "threads mode only"},
        BadRun{"NcclOnTheHostEngine", 2, kDeck, "run DECK --engine host --exchange nccl --output OUT",
               "--exchange nccl"},
        BadRun{"GpuCountOption", 2, kDeck, "run DECK --engine host --gpus 2 --output OUT", "--gpus"},
        BadRun{"SubdomainsAgainstRanks", 2, kDeck, "run DECK --engine host --subdomains 3 --output OUT",
               "--subdomains 3"},
        BadRun{"MoreRanksThanPlanes", 4,
               "[grid]\ncells = [8, 8, 3]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 5\n",
               "run DECK --engine host --output OUT", "cannot be split"},
        BadRun{"BenchCountsBeyondTheRanks", 2, "", "bench --engine host --size 8 --counts 1,4", "--counts 4"},
        BadRun{"BenchOfRowsNoneCanRun", 2, "", "bench --engine host --size 8 --exchanges host-staged --json OUT/b.json",
               "none of the requested rows can run here (host-staged"}),
    [](const auto& info) { return info.param.name; });

// Rank 0 alone looks into the output folder; every rank stops alike when it holds another run's
// files (exit 2, one message), and with --force the run replaces them.
TEST(MpiOutput, RefusesAFolderOfAnotherRunOnEveryRank) {
  ScratchDir dir;
  write_file(dir / "deck.toml", kDeck);
  const std::string run =
      "run " + (dir / "deck.toml").string() + " --engine host --quiet --output " + (dir / "out").string();
  const auto first = mpirun(2, run);
  ASSERT_EQ(first.result.exit_code, 0) << first.result.output;
  const std::string report = testing::read_file(dir / "out" / "run.json");
  const auto again = mpirun(2, run);
  EXPECT_EQ(again.result.exit_code, 2) << again.result.output;
  EXPECT_EQ(occurrences(again.result.output, "pass --force"), 1) << again.result.output;
  EXPECT_EQ(testing::read_file(dir / "out" / "run.json"), report) << "the earlier run's files stay as they were";
  const auto forced = mpirun(2, run + " --force");
  EXPECT_EQ(forced.result.exit_code, 0) << forced.result.output;
  EXPECT_LT(again.seconds, 60.0);
}

TEST(MpiFaults, RanksStartedWithDifferentArgumentsAreRefused) {
  ScratchDir out;
  const std::string y = YEEX_BINARY, o = out.path().string();
  const std::string flags = open_mpi() ? " --oversubscribe --bind-to none" : "";
  const auto r = run_program("timeout -k 5 120 " + std::string(YEEX_MPIEXEC),
                             flags + " -np 1 " + y + " run --engine host --steps 10 --output " + o + " : -np 1 " + y +
                                 " run --engine host --steps 20 --output " + o);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("every rank must get the same arguments"));
  EXPECT_THAT(r.output, HasSubstr("rank 1 on "));
  EXPECT_FALSE(std::filesystem::exists(out / "run.json"));
}

TEST(MpiFaults, ARankThatFailsStopsTheJobWithItsRankNamed) {
  // A source far too strong for float32 (tests/data/blow_up.toml) in the middle slab of three
  // (planes 6-10): with a check after every step, rank 1 finds the fields not finite after step 4,
  // while the damage is still within its planes and the others wait for its probe samples, and
  // must take them down with it.
  ScratchDir dir;
  const auto run = mpirun(3, "run " + testing::test_data("blow_up.toml").string() +
                                 " --engine host --quiet --check-every 1 --output " + (dir / "out").string());
  EXPECT_NE(run.result.exit_code, 0) << run.result.output;
  EXPECT_NE(run.result.exit_code, 124) << "the job hung until the timeout";
  EXPECT_THAT(run.result.output, HasSubstr("rank 1 on "));
  EXPECT_THAT(run.result.output, HasSubstr("blew up: Ez is not finite at node (8, 8, 8) after step 4"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "run.json"));
  EXPECT_LT(run.seconds, 60.0);
}

}  // namespace
}  // namespace yeex
