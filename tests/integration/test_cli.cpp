// The yeex binary as a user meets it: every deck in inputs/ runs, run.json is complete, and bad
// input gets exit code 2, a message naming the problem, and no output at all.
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "io/deck.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;
using testing::read_file;
using testing::read_json;
using testing::run_yeex;
using testing::ScratchDir;
using testing::source_path;
using testing::write_file;

std::vector<std::filesystem::path> input_decks() {
  std::vector<std::filesystem::path> decks;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("inputs")))
    if (entry.path().extension() == ".toml") decks.push_back(entry.path());
  std::sort(decks.begin(), decks.end());
  return decks;
}

class EveryInputDeck : public ::testing::TestWithParam<std::filesystem::path> {};

// Decks above this many cells (the benchmark box) are too big for a CI run: they are checked at
// full size with --dry-run (deck, split, memory) and run briefly stretched onto 16^3 cells by
// `yeex bench --deck`, the command they are for.
constexpr Index kLargestDeckRunInFull = Index(1) << 22;

TEST_P(EveryInputDeck, RunsOnTheHostEngine) {
  ScratchDir out;
  if (parse_deck_file(GetParam()).grid.cells() > kLargestDeckRunInFull) {
    const auto dry =
        run_yeex("run " + GetParam().string() + " --engine host --dry-run --output " + out.path().string());
    // Exit 2 is right where the host has too little memory for the full size; the message says so.
    if (dry.exit_code == 2)
      EXPECT_THAT(dry.output, HasSubstr("needs about")) << dry.output;
    else
      EXPECT_EQ(dry.exit_code, 0) << dry.output;
    EXPECT_TRUE(std::filesystem::is_empty(out.path())) << "--dry-run writes nothing";
    const auto bench =
        run_yeex("bench --deck " + GetParam().string() +
                 " --engine host --size 16 --steps 2 --warmup 1 --repeats 1 --counts 1,2 --exchanges host-staged");
    ASSERT_EQ(bench.exit_code, 0) << bench.output;
    EXPECT_THAT(bench.output, HasSubstr("host-staged"));
    return;
  }
  const auto r = run_yeex("run " + GetParam().string() + " --engine host --quiet --output " + out.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto report = read_json(out / "run.json");
  EXPECT_EQ(report["run"]["engine"], "host");
  EXPECT_THAT(report["run"]["engine_description"].get<std::string>(), HasSubstr("OpenMP"));
  EXPECT_EQ(report["checksum"]["fields"].get<std::string>().size(), 16u);
  for (const auto& file : report["files"]) EXPECT_TRUE(std::filesystem::exists(out / file.get<std::string>())) << file;
}

INSTANTIATE_TEST_SUITE_P(Inputs, EveryInputDeck, ::testing::ValuesIn(input_decks()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(Cli, ValidateWritesItsTableAndJson) {
  ScratchDir out;
  const auto r = run_yeex("validate --quick --engine host --only energy --json " + (out / "v.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("PASS"));
  const auto j = read_json(out / "v.json");
  EXPECT_EQ(j["format"], "yeex-validate-1");
  EXPECT_TRUE(j["pass"].get<bool>());
  ASSERT_EQ(j["problems"].size(), 1u);
  EXPECT_EQ(j["problems"][0]["problem"], "energy");
  EXPECT_LE(j["problems"][0]["rows"][0]["error"].get<double>(), j["problems"][0]["rows"][0]["tolerance"].get<double>());
}

TEST(Cli, ValidateRefusesBadOptionsWithExitCode2) {
  const auto unknown = run_yeex("validate --quick --engine host --only nonsense");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_THAT(unknown.output, HasSubstr("unknown problem"));
  const auto split = run_yeex("validate --quick --engine host --subdomains 100 --only energy");
  EXPECT_EQ(split.exit_code, 2) << split.output;
}

TEST(Cli, DryRunChecksAndWritesNothing) {
  ScratchDir out;
  const auto r = run_yeex("run --engine host --dry-run --output " + (out / "sub").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("nothing run"));
  EXPECT_FALSE(std::filesystem::exists(out / "sub"));
}

TEST(Cli, DefaultRunWritesACompleteReport) {
  ScratchDir out;
  const auto r = run_yeex("run --engine host --steps 40 --output " + out.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("Gcells/s"));
  const auto j = read_json(out / "run.json");
  for (const char* key : {"deck", "provenance", "run", "timings_s", "performance", "checksum", "files"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["run"]["steps"], 40);
  EXPECT_TRUE(j["provenance"].contains("git_commit"));
  // Every timing is a number with its definition; compute is what the exchange and waits leave.
  const auto& t = j["timings_s"];
  for (const char* key : {"setup", "stepping", "compute", "exchange", "wait", "output", "checks", "per_step"}) {
    ASSERT_TRUE(t.contains(key) && t[key].is_number()) << key;
    EXPECT_GE(t[key].get<double>(), 0.0) << key;
  }
  EXPECT_NEAR(t["compute"].get<double>(),
              t["stepping"].get<double>() - t["exchange"].get<double>() - t["wait"].get<double>(), 1e-12);
  for (const char* key : {"setup", "stepping", "compute", "output", "checks"})
    EXPECT_TRUE(t["definitions"].contains(key)) << key;
  EXPECT_TRUE(std::filesystem::exists(out / "probes.h5"));
  EXPECT_TRUE(std::filesystem::exists(out / "ez_xy.xdmf"));
  for (const auto& entry : std::filesystem::directory_iterator(out.path()))
    EXPECT_THAT(entry.path().filename().string(), ::testing::Not(HasSubstr("partial")));
}

TEST(Cli, SameRunGivesTheSameChecksumAndJsonGoesToStdout) {
  ScratchDir a, b;
  const auto ra = run_yeex("run --engine host --steps 30 --json --output " + a.path().string());
  const auto rb = run_yeex("run --engine host --steps 30 --quiet --output " + b.path().string());
  ASSERT_EQ(ra.exit_code, 0) << ra.output;
  ASSERT_EQ(rb.exit_code, 0) << rb.output;
  const auto printed = nlohmann::json::parse(ra.output);
  EXPECT_EQ(printed["checksum"]["fields"], read_json(b / "run.json")["checksum"]["fields"]);
}

// `yeex engines` says whether the kokkos engine runs in this build; `--engine kokkos` does what it
// says: a run with the host engine's checksum (two slabs, b2r), or exit 2 naming why, nothing written.
TEST(Cli, KokkosEngineDoesWhatTheEngineListSays) {
  const auto list = run_yeex("engines");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  std::istringstream lines(list.output);
  std::string line, runs_here;
  while (std::getline(lines, line))
    if (line.rfind("kokkos ", 0) == 0) std::istringstream(line) >> runs_here >> runs_here;
  ASSERT_TRUE(runs_here == "yes" || runs_here == "no") << list.output;
  ScratchDir host, kokkos;
  const auto r =
      run_yeex("run --engine kokkos --subdomains 2 --exchange b2r --halo-depth 2 --steps 30 --quiet --output " +
               (kokkos / "out").string());
  if (runs_here == "no") {
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_THAT(r.output, HasSubstr("--engine kokkos: cannot run here"));
    EXPECT_FALSE(std::filesystem::exists(kokkos / "out"));
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto reference = run_yeex("run --engine host --steps 30 --quiet --output " + host.path().string());
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  const auto j = read_json(kokkos / "out" / "run.json");
  EXPECT_EQ(j["run"]["engine"], "kokkos");
  EXPECT_THAT(j["run"]["engine_description"].get<std::string>(), HasSubstr("Kokkos"));
  EXPECT_EQ(j["checksum"]["fields"], read_json(host / "run.json")["checksum"]["fields"]);
}

TEST(Cli, DoublePrecisionRuns) {
  ScratchDir out;
  const auto r = run_yeex("run --engine host --precision f64 --steps 20 --quiet --output " + out.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_json(out / "run.json")["run"]["precision"], "f64");
}

TEST(Cli, SplitRunsMatchTheSingleSlabChecksum) {
  ScratchDir a, b;
  const auto one = run_yeex("run --engine host --steps 60 --quiet --output " + a.path().string());
  const auto three =
      run_yeex("run --engine host --subdomains 3 --exchange b2r --halo-depth 2 --steps 60 --quiet --output " +
               b.path().string());
  ASSERT_EQ(one.exit_code, 0) << one.output;
  ASSERT_EQ(three.exit_code, 0) << three.output;
  EXPECT_EQ(read_json(a / "run.json")["checksum"]["fields"], read_json(b / "run.json")["checksum"]["fields"]);
  EXPECT_EQ(read_json(b / "run.json")["run"]["subdomains"], 3);
}

TEST(Cli, ExchangeListAndBench) {
  const auto list = run_yeex("exchanges --engine host --subdomains 2");
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_THAT(list.output, HasSubstr("host-staged"));
  EXPECT_EQ(run_yeex("run --engine host --exchange list").exit_code, 0);
  ScratchDir out;
  const auto bench =
      run_yeex("bench --engine host --size 16 --counts 1,2 --scaling both --steps 2 --warmup 1 --repeats 1 --json " +
               (out / "bench.json").string() + " --markdown " + (out / "bench.md").string());
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_THAT(bench.output, HasSubstr("host-staged"));
  const auto j = read_json(out / "bench.json");
  // The markdown: a table per scaling and size, a row per backend, a column per device count, each
  // cell the row's efficiency and time per step as the JSON has them.
  const std::string md = read_file(out / "bench.md");
  EXPECT_THAT(
      md, HasSubstr(
              "## Strong scaling, 16³ in all (16 x 16 x 16)\n\n| backend | 1 device | 2 devices |\n|---|---:|---:|\n"));
  EXPECT_THAT(md, HasSubstr("## Weak scaling, 16³ per device"));
  EXPECT_THAT(md, HasSubstr("| engine alone (T1) | 100.0 % ("));
  for (const auto& row : j["rows"])
    if (row["exchange"] == "b2r" && row["devices"] == 2 && row["scaling"] == "strong" && row["skipped"] == "") {
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.1f %% (%.3f ms) |\n", 100 * row["efficiency"].get<double>(),
                    1e3 * row["seconds_per_step_median"].get<double>());
      EXPECT_THAT(md, HasSubstr("| b2r R=2 | ")) << md;
      EXPECT_THAT(md, HasSubstr(cell)) << md;
    }
  EXPECT_EQ(j["format"], "yeex-bench-2");
  EXPECT_GE(j["rows"].size(), 3u);
  for (const auto& row : j["rows"])
    if (row["skipped"] == "") {
      EXPECT_GT(row["setup_seconds"].get<double>(), 0.0) << row.dump();
      // Each repeat's stamps lie within the host's clock around it, so the medians keep the order.
      EXPECT_GE(row["host_clock_seconds_per_step_median"].get<double>(), row["seconds_per_step_median"].get<double>())
          << row.dump();
      EXPECT_GT(row["seconds_per_step_median"].get<double>(), 0.0) << row.dump();
      EXPECT_EQ(row["exchange_choices"], "") << "the host backends choose nothing while they run";
      EXPECT_EQ(row["settling_steps"], 0) << "nor do they settle after the warm-up";
    }
  // efficiency_own: against the backend's own 1-device row (1 on that row), none for the engine's.
  std::map<std::string, double> one_device;  // seconds per step of each backend's 1-device row
  for (const auto& row : j["rows"]) {
    if (row["skipped"] != "") continue;
    const std::string exchange = row["exchange"];
    if (exchange == "-") {
      EXPECT_TRUE(row["efficiency_own"].is_null()) << row.dump();
      continue;
    }
    const double seconds = row["seconds_per_step_median"];
    if (row["devices"] == 1) one_device[exchange] = seconds;
    ASSERT_TRUE(one_device.count(exchange)) << "the 1-device row comes first: " << row.dump();
    const int n = row["devices"];
    const double expected = one_device[exchange] / (row["scaling"] == "strong" ? n * seconds : seconds);
    EXPECT_DOUBLE_EQ(row["efficiency_own"].get<double>(), expected) << row.dump();
  }
  EXPECT_THAT(bench.output, HasSubstr(" own "));
}

// bench --verify hashes every row's fields after the warm-up: the pseudo-random start depends on
// the global node alone, so every backend and slab count of a grid gives the first row's bits (the
// strong rows on 1-3 slabs, b2r at R = 2 included; each weak grid its own).
TEST(Cli, BenchVerifiesThatEveryRowComputesTheSameFields) {
  ScratchDir out;
  const auto bench = run_yeex(
      "bench --engine host --size 12 --counts 1,2,3 --scaling both --exchanges host-staged,b2r "
      "--steps 2 --warmup 3 --repeats 1 --verify --json " +
      (out / "bench.json").string());
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_THAT(bench.output, HasSubstr("# bits (--verify)"));
  const auto j = read_json(out / "bench.json");
  EXPECT_EQ(j["verify"], true);
  std::map<std::string, std::string> first;  // grid -> checksum
  int same = 0;
  for (const auto& row : j["rows"]) {
    ASSERT_EQ(row["skipped"], "") << row.dump();
    ASSERT_TRUE(row["checksum_after_warmup"].is_string()) << row.dump();
    const std::string grid = row["grid"].dump(), sum = row["checksum_after_warmup"];
    if (!first.count(grid)) {
      first[grid] = sum;
      EXPECT_EQ(row["bits"], "first") << row.dump();
    } else {
      EXPECT_EQ(sum, first[grid]) << row.dump();
      EXPECT_EQ(row["bits"], "same") << row.dump();
      ++same;
    }
  }
  EXPECT_EQ(first.size(), 3u) << "12^3, and the weak grids of 2 and 3 slabs";
  EXPECT_EQ(same, 6 + 2) << "five strong rows and the engine's, then one more on each weak grid";
  // Without --verify nothing is hashed.
  const auto plain = run_yeex(
      "bench --engine host --size 12 --counts 1 --exchanges host-staged --steps 2 --warmup 1 "
      "--repeats 1 --json " +
      (out / "plain.json").string());
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const auto unverified = read_json(out / "plain.json");  // kept: a range over a temporary's member would dangle
  ASSERT_FALSE(unverified["rows"].empty());
  for (const auto& row : unverified["rows"]) EXPECT_TRUE(row["checksum_after_warmup"].is_null());
}

// `bench --deck` without --size runs the deck on its own grid (cavity.toml: 25 x 10 x 30): T1 and
// the strong rows on it, the weak rows on it stacked along z; with --size, on cubes stretched from
// it. The table names the deck's grid "deck" in the size column, the JSON size 0.
TEST(Cli, BenchRunsADeckOnItsOwnGrid) {
  ScratchDir out;
  const std::string deck = source_path("inputs/cavity.toml");
  const auto own = run_yeex("bench --deck " + deck +
                            " --engine host --counts 1,2 --scaling both --steps 2 --warmup 1 "
                            "--repeats 1 --exchanges host-staged --json " +
                            (out / "own.json").string());
  ASSERT_EQ(own.exit_code, 0) << own.output;
  EXPECT_THAT(own.output, HasSubstr("on its own grid"));
  EXPECT_THAT(own.output, HasSubstr("deck 25x10x30"));
  std::map<std::string, std::vector<Index>> grids;  // "scaling devices" -> grid
  const auto own_json = read_json(out / "own.json");
  for (const auto& row : own_json["rows"]) {
    EXPECT_EQ(row["size"], 0) << row.dump();
    EXPECT_EQ(row["skipped"], "") << row.dump();
    grids[row["scaling"].get<std::string>() + " " + std::to_string(row["devices"].get<int>())] =
        row["grid"].get<std::vector<Index>>();
  }
  EXPECT_EQ(grids["strong 1"], (std::vector<Index>{25, 10, 30}));
  EXPECT_EQ(grids["strong 2"], (std::vector<Index>{25, 10, 30}));
  EXPECT_EQ(grids["weak 2"], (std::vector<Index>{25, 10, 60}));
  const auto cube = run_yeex("bench --deck " + deck +
                             " --engine host --size 12 --counts 2 --steps 2 --warmup 1 "
                             "--repeats 1 --exchanges host-staged --json " +
                             (out / "cube.json").string());
  ASSERT_EQ(cube.exit_code, 0) << cube.output;
  EXPECT_THAT(cube.output, HasSubstr("stretched onto each grid"));
  const auto cube_json = read_json(out / "cube.json");
  for (const auto& row : cube_json["rows"]) {
    EXPECT_EQ(row["size"], 12) << row.dump();
    EXPECT_EQ(row["grid"], (std::vector<Index>{12, 12, 12})) << row.dump();
  }
}

// The YEEX_ and NCCL_ variables a run was taken under are part of its provenance (run.json and the
// bench JSON) and of the bench table's header; one no longer set is no longer listed.
// A blow-up stops the run with the step and the node: the fields are scanned for NaN/Inf between
// chunks of steps, and --check-every 1 scans them after every step, so the step named is the first
// whose fields are not finite: one step fewer runs to the end. Nothing is left in the output folder.
TEST(Cli, NamesTheStepAndNodeOfABlowUp) {
  ScratchDir dir;
  const std::string run = "run " + testing::test_data("blow_up.toml").string() + " --engine host --quiet --output " +
                          (dir / "out").string();
  const auto every = run_yeex(run + " --check-every 1");
  ASSERT_EQ(every.exit_code, 1) << every.output;
  const std::regex named(
      R"(the fields blew up: (E|H)[xyz] is not finite at node \(\d+, \d+, \d+\) after step (\d+)\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(every.output, m, named)) << every.output;
  const int step = std::stoi(m[2]);
  ASSERT_GT(step, 1);
  EXPECT_LT(step, 40) << "the deck is meant to blow up well before its end";
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  const auto before = run_yeex(run + " --steps " + std::to_string(step - 1));
  EXPECT_EQ(before.exit_code, 0) << "one step before the step named the fields are finite\n" << before.output;
  std::filesystem::remove_all(dir / "out");
  // By default the whole run is one chunk here: the blow-up is named after it, with the last step
  // a check passed.
  const auto chunk = run_yeex(run);
  EXPECT_EQ(chunk.exit_code, 1) << chunk.output;
  EXPECT_THAT(chunk.output, HasSubstr("the fields blew up"));
  EXPECT_THAT(chunk.output, HasSubstr("--check-every 1 finds the step"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(Cli, RecordsTheTuningEnvironment) {
  ScratchDir out;
  const std::string bench =
      "bench --engine host --size 8 --counts 1 --exchanges host-staged --steps 2 --warmup 1 --repeats 1 ";
  {
    const testing::ScopedEnvironmentVariable aware("YEEX_MPI_CUDA_AWARE", "0");
    const testing::ScopedEnvironmentVariable nvls("NCCL_NVLS_ENABLE", "0");
    const auto r = run_yeex(bench + "--json " + (out / "tuned.json").string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("# environment: NCCL_NVLS_ENABLE=0 YEEX_MPI_CUDA_AWARE=0"));
    const auto j = read_json(out / "tuned.json");
    EXPECT_EQ(j["provenance"]["environment"]["YEEX_MPI_CUDA_AWARE"], "0");
    EXPECT_EQ(j["provenance"]["environment"]["NCCL_NVLS_ENABLE"], "0");
    // The NCCL library's own version ("not built" without NCCL), whatever NCCL_VERSION says.
    ASSERT_TRUE(j["provenance"]["nccl"].is_string());
    EXPECT_FALSE(j["provenance"]["nccl"].get<std::string>().empty());
    const auto run = run_yeex("run --engine host --steps 2 --output " + (out / "run").string());
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(read_json(out / "run" / "run.json")["provenance"]["environment"]["YEEX_MPI_CUDA_AWARE"], "0");
  }
  const auto plain = run_yeex(bench + "--json " + (out / "plain.json").string());
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const auto environment = read_json(out / "plain.json")["provenance"]["environment"];
  ASSERT_TRUE(environment.is_object());
  if (!std::getenv("YEEX_MPI_CUDA_AWARE")) EXPECT_FALSE(environment.contains("YEEX_MPI_CUDA_AWARE"));
  if (environment.empty()) EXPECT_THAT(plain.output, ::testing::Not(HasSubstr("# environment:")));
}

TEST(Cli, BenchRecordsTopologyAndReadsAP2PSweep) {
  ScratchDir out;
  write_file(
      out / "p2p.json",
      R"({"results": [{"test": "sweep", "curves": [{"title": "sweep/0->1", "points": [{"bytes": 4, "us": 2.0}]}]}]})");
  const std::string common =
      "bench --engine host --size 16 --counts 1,2 --exchanges host-staged --steps 2 --warmup 1 --repeats 1 ";
  const auto bench =
      run_yeex(common + "--p2p-json " + (out / "p2p.json").string() + " --json " + (out / "bench.json").string());
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_THAT(bench.output, HasSubstr("pred ms"));
  const auto j = read_json(out / "bench.json");
  EXPECT_TRUE(j["provenance"].contains("topology"));
  EXPECT_EQ(j["p2p_sweep"]["pairs"][0], "0->1");
  EXPECT_EQ(j["p2p_sweep"]["applied"], false);  // host engine: no GPU links to predict
  EXPECT_TRUE(j["rows"][1]["predicted_exchange_seconds_per_step"].is_null());
  write_file(out / "bad.json", R"({"results": []})");
  const auto bad = run_yeex(common + "--p2p-json " + (out / "bad.json").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.output, HasSubstr("no sweep curve"));
  EXPECT_EQ(run_yeex(common + "--p2p-json " + (out / "missing.json").string()).exit_code, 2);
}

TEST(Cli, VersionAndHelp) {
  const auto v = run_yeex("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_THAT(v.output, HasSubstr("yeex "));
  const auto h = run_yeex("run --help");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_THAT(h.output, HasSubstr("--engine"));
  const auto e = run_yeex("engines");
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_THAT(e.output, HasSubstr("host"));
}

// Every --help names each option's value in a word (--steps N) and says in a sentence what it
// means: no CLI11 type and validator names ("INT:INT from 1 to 2147483647", "TEXT:{f32,f64}"),
// lines within 80 columns; the top-level help points to the commands' help and to yeex-p2p.
TEST(Cli, HelpReadsLikeAPersonWroteIt) {
  const std::regex noise(R"(\b(INT|TEXT|UINT|FLOAT)\b|:FILE|:PATH|2147483647|1000000000|:\{|Excludes:|in \[)");
  for (const char* command : {"", "run ", "bench ", "validate ", "engines ", "exchanges "}) {
    const auto h = run_yeex(std::string(command) + "--help");
    ASSERT_EQ(h.exit_code, 0) << command << "\n" << h.output;
    std::smatch m;
    EXPECT_FALSE(std::regex_search(h.output, m, noise)) << "'" << m.str() << "' in yeex " << command << "--help:\n"
                                                        << h.output;
    std::istringstream lines(h.output);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 80u) << command << ": " << line;
  }
  const auto top = run_yeex("--help");
  EXPECT_THAT(top.output, HasSubstr("yeex <command> --help"));
  EXPECT_THAT(top.output, HasSubstr("yeex-p2p"));
  EXPECT_THAT(top.output, HasSubstr("Usage: yeex [OPTIONS] COMMAND")) << "the program's name, not its path";
  const auto run = run_yeex("run --help");
  EXPECT_THAT(run.output, HasSubstr("--steps N"));
  EXPECT_THAT(run.output, HasSubstr("--output DIR"));
  EXPECT_THAT(run.output, HasSubstr("--force"));
  EXPECT_THAT(run.output, HasSubstr("yeex-output/dipole_box"));
  const auto bench = run_yeex("bench --help");
  EXPECT_THAT(bench.output, HasSubstr("--repeats N"));
  EXPECT_THAT(bench.output, HasSubstr("(default 5)"));
}

TEST(Cli, NamesAnUnknownCommandOrOption) {
  const auto command = run_yeex("runn");
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_THAT(command.output, HasSubstr("unknown command 'runn'"));
  const auto option = run_yeex("--frob");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_THAT(option.output, HasSubstr("unknown option '--frob'"));
}

// Where a file the run writes would land on a folder, or the output folder is a dangling link,
// the run is refused before it starts, and what was there stays as it was.
TEST(Cli, RefusesOutputItCouldNotWriteWhole) {
  for (const char* file : {"run.json", "probes.h5", "ez_xy.xdmf"}) {
    ScratchDir out;
    std::filesystem::create_directory(out / file);
    const auto r = run_yeex("run --engine host --steps 2 --output " + out.path().string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_THAT(r.output, HasSubstr("is a folder, where the run writes the file " + std::string(file)));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out.path()), {}), 1) << "nothing written beside it";
  }
  ScratchDir dir;
  std::filesystem::create_directory_symlink(dir / "nowhere", dir / "link");
  const auto link = run_yeex("run --engine host --steps 2 --output " + (dir / "link").string());
  EXPECT_EQ(link.exit_code, 2) << link.output;
  EXPECT_THAT(link.output, HasSubstr("which does not exist"));
  EXPECT_FALSE(std::filesystem::exists(dir / "nowhere"));
}

// In a folder with the sticky bit (as /tmp), another user's run.json cannot be replaced: refused up
// front (was exit 1 after the other files were written). Needs root, to run yeex as nobody.
TEST(Cli, RefusesAFileItCannotReplaceInAStickyFolder) {
  if (geteuid() != 0 || std::system("command -v setpriv > /dev/null") != 0) GTEST_SKIP() << "needs root and setpriv";
  ScratchDir dir;
  std::filesystem::permissions(dir.path(), std::filesystem::perms::all);  // 0777: nobody may enter
  const auto out = dir / "out";
  std::filesystem::create_directory(out);
  std::filesystem::permissions(out, std::filesystem::perms::all | std::filesystem::perms::sticky_bit);
  write_file(out / "run.json", "{}\n");  // root's
  const auto r = testing::run_program("setpriv --reuid=65534 --regid=65534 --clear-groups " + testing::yeex_binary(),
                                      "run --engine host --steps 2 --force --output " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("belongs to another user in a folder with the sticky bit set"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out), {}), 1) << "nothing written beside it";
}

// An immutable file where the run writes one, or an append-only output folder, is refused up
// front (the run's final rename would fail after the other files were written). Needs root and a
// file system that keeps the attributes (chattr).
TEST(Cli, RefusesAnImmutableFileOrAnAppendOnlyFolder) {
  ScratchDir dir;
  const auto out = dir / "out";
  std::filesystem::create_directory(out);
  write_file(out / "run.json", "{}\n");
  const auto chattr = [](const std::string& flags, const std::filesystem::path& path) {
    return std::system(("chattr " + flags + " " + path.string() + " 2> /dev/null").c_str()) == 0;
  };
  if (geteuid() != 0 || !chattr("+i", out / "run.json")) GTEST_SKIP() << "needs root and chattr";
  struct Unlock {  // the scratch folder can be removed only without the attributes
    std::function<void()> undo;
    ~Unlock() { undo(); }
  } unlock{[&] { chattr("-i", out / "run.json"), chattr("-a", out); }};
  const std::string run = "run --engine host --steps 2 --force --output " + out.string();
  auto r = run_yeex(run);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("run.json' is immutable (chattr +i): it cannot be replaced"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out), {}), 1) << "nothing written beside it";
  ASSERT_TRUE(chattr("-i", out / "run.json") && chattr("+a", out));
  r = run_yeex(run);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("is append-only, so the run cannot put its files in it"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out), {}), 1) << "no trial file left";
}

// The names in a folder, sorted.
std::vector<std::string> folder_listing(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A second run into a folder that holds a run's files is refused (exit 2, the folder and --force
// named), a dry run too, and the earlier run's files stay as they were.
TEST(Cli, RefusesToMixTwoRunsInOneFolder) {
  ScratchDir dir;
  const auto out = dir / "out";
  const std::string run = "run --engine host --steps 4 --output " + out.string();
  ASSERT_EQ(run_yeex(run).exit_code, 0);
  const auto before = folder_listing(out);
  ASSERT_EQ(before, (std::vector<std::string>{"ez_xy.h5", "ez_xy.xdmf", "probes.h5", "run.json"}));
  const std::string report = read_file(out / "run.json");
  for (const std::string extra : {"", " --dry-run", " --precision f64"}) {
    const auto again = run_yeex(run + extra);
    EXPECT_EQ(again.exit_code, 2) << extra << "\n" << again.output;
    EXPECT_THAT(again.output, HasSubstr("output folder '" + out.string() + "' holds the files of an earlier run"));
    EXPECT_THAT(again.output, HasSubstr("--force"));
    EXPECT_EQ(folder_listing(out), before) << extra;
    EXPECT_EQ(read_file(out / "run.json"), report) << extra;
  }
  // Files yeex did not write: refused too, named; they stay.
  ScratchDir mine;
  write_file(mine / "notes.txt", "mine\n");
  const auto other = run_yeex("run --engine host --steps 4 --output " + mine.path().string());
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_THAT(other.output, HasSubstr("holds files yeex did not write (notes.txt)"));
  EXPECT_THAT(other.output, HasSubstr("--force"));
  EXPECT_EQ(folder_listing(mine.path()), std::vector<std::string>{"notes.txt"});
}

// --force removes what an earlier run left (the files its run.json lists, probes.h5, snapshot
// pairs, unfinished .partial-PID files) before the run, so the folder holds one run's files;
// files yeex did not write stay.
TEST(Cli, ForceReplacesTheEarlierRunAndKeepsOtherFiles) {
  ScratchDir dir;
  const auto out = dir / "out";
  ASSERT_EQ(run_yeex("run --engine host --steps 4 --quiet --output " + out.string()).exit_code, 0);
  write_file(out / "ez_xy.h5.partial-12345", "a killed run's unfinished file");
  write_file(out / "notes.txt", "mine\n");
  std::filesystem::create_directory(out / "plots");
  // A deck with other output: no probes, one snapshot under another name.
  write_file(dir / "other.toml", R"(
[grid]
cells = [10, 10, 10]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 5
[[snapshot]]
name = "volume"
components = ["Ez"]
every = 5
)");
  const std::string run = "run " + (dir / "other.toml").string() + " --engine host --output " + out.string();
  const auto refused = run_yeex(run);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_THAT(refused.output, HasSubstr("the files of an earlier run (ez_xy.h5, ez_xy.h5.partial-12345, ez_xy.xdmf, "
                                        "probes.h5, run.json) and files yeex did not write (notes.txt, plots/)"));
  const auto forced = run_yeex(run + " --force");
  ASSERT_EQ(forced.exit_code, 0) << forced.output;
  EXPECT_THAT(forced.output, HasSubstr("--force: removed the 5 file(s) of an earlier run"));
  EXPECT_EQ(folder_listing(out),
            (std::vector<std::string>{"notes.txt", "plots", "run.json", "volume.h5", "volume.xdmf"}));
  EXPECT_EQ(read_file(out / "notes.txt"), "mine\n");
  EXPECT_EQ(read_json(out / "run.json")["run"]["steps"], 5);
  // And again: the folder still holds one run.
  const auto twice = run_yeex("run --engine host --steps 3 --quiet --force --output " + out.string());
  ASSERT_EQ(twice.exit_code, 0) << twice.output;
  EXPECT_EQ(folder_listing(out),
            (std::vector<std::string>{"ez_xy.h5", "ez_xy.xdmf", "notes.txt", "plots", "probes.h5", "run.json"}));
}

// Without output.directory each deck writes to yeex-output/<its file stem> under the folder yeex
// runs in, and the built-in deck to yeex-output/dipole_box: two decks run from one folder keep
// their own output.
TEST(Cli, EachDeckWritesToItsOwnDefaultFolder) {
  ScratchDir cwd;
  const std::string yeex = "cd " + cwd.path().string() + " && " + testing::yeex_binary();
  for (const char* deck : {"dipole_box", "cavity"}) {
    const auto r = testing::run_program(
        yeex, "run " + source_path("inputs/" + std::string(deck) + ".toml") + " --engine host --steps 3 --quiet");
    ASSERT_EQ(r.exit_code, 0) << deck << "\n" << r.output;
  }
  EXPECT_EQ(folder_listing(cwd / "yeex-output"), (std::vector<std::string>{"cavity", "dipole_box"}));
  EXPECT_EQ(read_json(cwd / "yeex-output" / "cavity" / "run.json")["deck"]["output"]["directory"],
            "yeex-output/cavity");
  EXPECT_EQ(read_json(cwd / "yeex-output" / "dipole_box" / "run.json")["deck"]["title"],
            "dipole in a PEC box with a dielectric block");
  // The built-in deck is dipole_box.toml: the same folder, so refused without --force.
  const auto builtin = testing::run_program(yeex, "run --engine host --steps 3 --quiet");
  EXPECT_EQ(builtin.exit_code, 2) << builtin.output;
  EXPECT_THAT(builtin.output, HasSubstr("output folder 'yeex-output/dipole_box' holds the files of an earlier run"));
}

// Ctrl-C or SIGTERM stops a run after its current chunk of steps: exit 128 + the signal, the step
// named, its files and the output folder it made removed (a folder that was there stays).
TEST(Cli, AnInterruptedRunRemovesWhatItBegan) {
  ScratchDir dir;
  std::filesystem::create_directory(dir / "kept");
  for (const auto& [signal, code, folder] : {std::tuple{"INT", 130, "made/by/run"}, std::tuple{"TERM", 143, "kept"}}) {
    const std::string run = "timeout 60 " + testing::yeex_binary() + " run --engine host --steps 1000000 --output " +
                            (dir / folder).string();
    const auto r = testing::run_program("sh -c", "'" + run + " & p=$!; sleep 2; kill -" + signal + " $p; wait $p'");
    EXPECT_EQ(r.exit_code, code) << r.output;
    EXPECT_THAT(r.output, HasSubstr(std::string("interrupted (SIG") + signal + ") after step "));
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "made")) << "the folders the run made are gone";
  EXPECT_TRUE(std::filesystem::is_empty(dir / "kept")) << "no file, partial or whole, is left";
}

// bench and validate check their options and their --json file before any work.
TEST(Cli, BenchAndValidateRefuseBadOptionsBeforeRunning) {
  ScratchDir dir;
  const std::string bench = "bench --engine host --size 8 --steps 1 --warmup 0 --repeats 1 ";
  const std::vector<std::pair<std::string, std::string>> cases{
      {bench + "--counts 0", "--counts: must be from 1 to 2147483647, got 0"},
      {bench + "--counts 99999999999", "--counts: must be from 1 to 2147483647, got 99999999999"},
      {bench + "--counts 1,2,1", "--counts: 1 is listed twice"},
      // CLI11 drops a list's empty elements; they are typos, named
      {bench + "--counts 1,,2", "--counts: '1,,2' has an empty element"},
      {bench + "--counts=1,2,", "--counts: '1,2,' has an empty element"},
      {bench + "--exchanges ''", "--exchanges: the list is empty"},
      {"validate --quick --engine host --only ,cavity", "--only: ',cavity' has an empty element"},
      {bench + "--exchanges host-staged,host-staged", "--exchanges: host-staged is listed twice"},
      {bench + "--deck " + testing::test_data("source_in_pec.toml").string(),
       "source[0].position: the source's E component lies inside a PEC object"},
      {bench + "--exchanges host-staged,pigeon",
       "--exchanges: unknown exchange backend 'pigeon' (known: host-staged, p2p"},
      {bench + "--counts 16 --exchanges host-staged", "none of the requested rows can run here"},
      {bench + "--exchanges p2p", "none of the requested rows can run here"},
      {bench + "--exchange p2p", "named with --exchanges"},
      {bench + "--counts 1 --json " + dir.path().string(), "names a folder"},
      {bench + "--counts 1 --markdown " + dir.path().string(), "names a folder"},
      {bench + "--counts 1 --json " + (dir / "b.out").string() + " --markdown " + (dir / "b.out").string(),
       "--json and --markdown name the same file"},
      {"validate --quick --engine host --only energy --json " + dir.path().string(), "names a folder"},
      {"validate --quick --engine host --subdomains 2 --exchange p2p", "--exchange p2p"},
      // cavity's grid takes 11 slabs, energy's does not: refused before cavity runs
      {"validate --quick --engine host --subdomains 11", "problem energy: a grid of 10 cells along z cannot be split"}};
  for (const auto& [arguments, message] : cases) {
    const auto r = run_yeex(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(message)) << arguments;
    EXPECT_THAT(r.output, ::testing::Not(HasSubstr("# yeex"))) << "refused before the table starts: " << arguments;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  std::filesystem::create_directory(dir / "sweep");
  const auto folder = run_yeex(bench + "--counts 1 --p2p-json " + (dir / "sweep").string());
  EXPECT_EQ(folder.exit_code, 2) << folder.output;
  EXPECT_THAT(folder.output, HasSubstr("is a folder"));
  write_file(dir / "typed.json", R"({"results": [{"test": "sweep", "curves": [5]}]})");
  const auto typed = run_yeex(bench + "--counts 1 --p2p-json " + (dir / "typed.json").string());
  EXPECT_EQ(typed.exit_code, 2) << typed.output;
  EXPECT_THAT(typed.output, HasSubstr("is not a yeex-p2p sweep"));
  std::string deep = dir.path().string();
  while (deep.size() < 4200) deep += "/" + std::string(200, 'd');
  const auto too_long = run_yeex(bench + "--counts 1 --json " + deep + "/b.json");
  EXPECT_EQ(too_long.exit_code, 2) << too_long.output;
  EXPECT_THAT(too_long.output, HasSubstr("more than the file system allows"));
  const auto list = run_yeex("bench --engine host --exchanges list");
  EXPECT_EQ(list.exit_code, 0) << list.output;
  EXPECT_THAT(list.output, HasSubstr("host-staged"));
  // A --json file in a folder that does not exist yet: the folder is made when the file is written.
  const auto nested =
      run_yeex(bench + "--counts 1 --exchanges host-staged --json " + (dir / "new" / "b.json").string());
  EXPECT_EQ(nested.exit_code, 0) << nested.output;
  EXPECT_EQ(read_json(dir / "new" / "b.json")["format"], "yeex-bench-2");
  // Through a link, the file it names is written; the link stays a link.
  std::filesystem::create_symlink(dir / "new" / "b.json", dir / "link.json");
  const auto linked =
      run_yeex(bench + "--counts 1 --exchanges host-staged --precision f64 --json " + (dir / "link.json").string());
  EXPECT_EQ(linked.exit_code, 0) << linked.output;
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.json"));
  EXPECT_EQ(read_json(dir / "new" / "b.json")["precision"], "f64");
}

// Bad input: exit code 2, the message names the problem, nothing is written.
struct BadInput {
  std::string name;
  std::string deck;       // written to bad.toml when not empty
  std::string arguments;  // after "run"; DECK and OUT are replaced
  std::string message;
};

class RefusesBadInput : public ::testing::TestWithParam<BadInput> {};

const char* kGoodDeck = R"(
[grid]
cells = [10, 10, 10]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 5
)";

TEST_P(RefusesBadInput, WithExitCode2AndNoOutput) {
  const BadInput& c = GetParam();
  ScratchDir dir;
  const auto deck = dir / "bad.toml";
  write_file(deck, c.deck.empty() ? kGoodDeck : c.deck);
  const auto out = dir / "out";
  std::string args = c.arguments;
  for (auto [from, to] : {std::pair<std::string, std::string>{"DECK", deck.string()}, {"OUT", out.string()}})
    for (auto at = args.find(from); at != std::string::npos; at = args.find(from)) args.replace(at, from.size(), to);
  const auto r = run_yeex("run " + args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr(c.message));
  EXPECT_FALSE(std::filesystem::exists(out)) << "a refused run must write nothing";
}

INSTANTIATE_TEST_SUITE_P(
    Cli, RefusesBadInput,
    ::testing::Values(
        BadInput{"MalformedDeck", "[grid\ncells = [1,2,3]\n", "DECK --output OUT", "TOML syntax error"},
        BadInput{"UnknownKey", std::string(kGoodDeck) + "colour = 3\n", "DECK --output OUT", "colour: unknown key"},
        BadInput{"NegativeSize", "[grid]\ncells = [10, -4, 10]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 5\n",
                 "DECK --output OUT", "grid.cells"},
        BadInput{"UnstableTimeStep", std::string(kGoodDeck) + "courant = 1.5\n", "DECK --output OUT", "time.courant"},
        BadInput{"AbsurdGrid",
                 "[grid]\ncells = [100000, 100000, 100000]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 5\n",
                 "DECK --output OUT", "grid.cells"},
        BadInput{"DeckDoesNotFitInMemory",
                 "[grid]\ncells = [8000, 8000, 8000]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 5\n",
                 "DECK --engine host --output OUT", "GiB"},
        BadInput{"CpmlThickerThanTheGrid", std::string(kGoodDeck) + "[boundary]\nall = \"cpml\"\n",
                 "DECK --engine host --output OUT", "boundary.cpml.cells: 2 CPML slabs of 10 cells leave -10"},
        BadInput{"SourceInsideCpml",
                 std::string(kGoodDeck) + "[boundary]\nall = \"cpml\"\n[boundary.cpml]\ncells = 3\n[[source]]\n"
                                          "polarisation = \"z\"\nposition = [0.005, 0.005, 0.0085]\n"
                                          "waveform = \"ricker\"\nfrequency = 3e10\n",
                 "DECK --engine host --output OUT", "lies inside the z_max CPML slab"},
        // The model's own checks, on a run and on a dry run alike.
        BadInput{"SourceInPec", read_file(testing::test_data("source_in_pec.toml")), "DECK --engine host --output OUT",
                 "source[0].position: the source's E component lies inside a PEC object"},
        BadInput{"SourceInPecDryRun", read_file(testing::test_data("source_in_pec.toml")),
                 "DECK --engine host --dry-run --output OUT",
                 "source[0].position: the source's E component lies inside a PEC object"},
        BadInput{"UnknownEngine", "", "DECK --engine warp --output OUT", "--engine"},
        BadInput{"UnknownPrecision", "", "DECK --precision f16 --output OUT", "--precision"},
        BadInput{"ZeroSteps", "", "DECK --steps 0 --output OUT", "--steps"},
        BadInput{"MissingDeck", "", "/nonexistent/deck.toml --output OUT", "deck"},
        BadInput{"OutputUnderAFile", "", "DECK --engine host --output DECK/out", "not a folder"},
        BadInput{"UnwritableOutput", "", "DECK --engine host --output /proc/yeex-out", "not writable"},
        BadInput{"MoreSlabsThanPlanes", "", "DECK --engine host --subdomains 20 --output OUT", "cannot be split"},
        BadInput{"HaloDeeperThanSlab", "",
                 "DECK --engine host --subdomains 4 --exchange b2r --halo-depth 3 --output OUT", "halo depth"},
        BadInput{"B2rWithoutDepth", "", "DECK --engine host --subdomains 2 --exchange b2r --output OUT",
                 "--halo-depth"},
        BadInput{"GpuBackendOnHost", "", "DECK --engine host --subdomains 2 --exchange p2p --output OUT",
                 "cuda engine"},
        BadInput{"GpusOnHostEngine", "", "DECK --engine host --gpus 2 --output OUT", "--gpus"},
        BadInput{"UnknownExchange", "", "DECK --engine host --exchange carrier-pigeon --output OUT",
                 "--exchange: carrier-pigeon not in {host-staged,p2p"},
        BadInput{"StepsAboveTheLimit", "", "DECK --steps 1500000000 --output OUT",
                 "--steps: must be from 1 to 1000000000"},
        BadInput{"StepsNotANumber", "", "DECK --steps abc --output OUT", "--steps: 'abc' is not a whole number"},
        BadInput{"CheckEveryZero", "", "DECK --check-every 0 --output OUT", "--check-every"},
        BadInput{"EmptyOutput", "", "DECK --output ''", "--output: must not be empty"},
        BadInput{"OutputNameTooLong", "", "DECK --engine host --output OUT/" + std::string(300, 'x'), "300 bytes long"},
        BadInput{"NoPeerOnHost", "", "DECK --engine host --no-peer --output OUT", "--no-peer needs the cuda engine"},
        BadInput{"OversubscribeWithoutMpirun", "", "DECK --engine host --oversubscribe-gpus --output OUT",
                 "--oversubscribe-gpus is for MPI mode"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace yeex
