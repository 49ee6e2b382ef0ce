// What a run may choose, in the open: the few YEEX_ environment variables yeex reads
// (src/runtime/environment.hpp: bad values refused, unknown names warned about) and the options
// that fix what the engine and the backends would otherwise choose (--arena-unit, --coop-form,
// --graph-steps, --b2r-transport: parsed into RunConfig, refused where they cannot apply).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/app/commands.hpp"
#include "src/runtime/environment.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> warnings_of(std::vector<std::string> entries) {
  std::vector<char*> list;
  for (std::string& e : entries) list.push_back(e.data());
  list.push_back(nullptr);
  return check_yeex_environment(list.data());
}

TEST(Environment, KnownVariablesTakeZeroOrOne) {
  EXPECT_TRUE(warnings_of({"YEEX_MPI_CUDA_AWARE=0", "PATH=/bin", "OMP_NUM_THREADS=4", "NCCL_DEBUG=INFO"}).empty());
  EXPECT_TRUE(warnings_of({"YEEX_MPI_CUDA_AWARE=1"}).empty());
  for (const char* bad : {"YEEX_MPI_CUDA_AWARE=", "YEEX_MPI_CUDA_AWARE=yes", "YEEX_MPI_CUDA_AWARE=2"}) {
    try {
      warnings_of({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("YEEX_MPI_CUDA_AWARE")) << bad;
      EXPECT_THAT(e.what(), HasSubstr("must be 0 or 1")) << bad;
    }
  }
}

TEST(Environment, UnknownNamesAreWarnedAbout) {
  const std::vector<std::string> w = warnings_of({"YEEX_MPI_CUDA_AWAER=0", "YEEX_FIELD_SLOT_MIB=32", "YEEX_PDL=0"});
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], "environment variable YEEX_MPI_CUDA_AWAER is not read by yeex (ignored)");
  EXPECT_EQ(w[1], "environment variable YEEX_FIELD_SLOT_MIB is not read by yeex (ignored; use --arena-unit)");
  EXPECT_THAT(w[2], HasSubstr("YEEX_PDL is not read by yeex"));
}

// The binary: a bad value stops it with exit 2 before anything runs; an unknown name is a warning.
TEST(Environment, TheBinaryRefusesBadValuesAndWarnsAboutUnknownNames) {
  const auto bad = testing::run_program("YEEX_MPI_CUDA_AWARE=maybe " + testing::yeex_binary(), "engines");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_THAT(bad.output, HasSubstr("YEEX_MPI_CUDA_AWARE='maybe': must be 0 or 1"));
  const auto unknown = testing::run_program("YEEX_GRAPH_STEPS=7 " + testing::yeex_binary(), "engines");
  EXPECT_EQ(unknown.exit_code, 0) << unknown.output;
  EXPECT_THAT(
      unknown.output,
      HasSubstr("warning: environment variable YEEX_GRAPH_STEPS is not read by yeex (ignored; use --graph-steps)"));
}

RunConfig applied(const SplitOptions& o, const std::string& engine, const std::string& exchange = "") {
  RunConfig config;
  config.engine = engine;
  config.exchange = exchange;
  apply_choices(o, config);
  return config;
}

TEST(Choices, ParseIntoTheRunConfig) {
  SplitOptions o;
  const RunConfig plain = applied(o, "cuda");
  EXPECT_EQ(plain.cuda_engine.arena_unit, 0u);
  EXPECT_EQ(plain.exchange_options.coop_form, ExchangeOptions::CoopForm::automatic);
  EXPECT_EQ(plain.exchange_options.graph_steps, 0);
  EXPECT_EQ(plain.exchange_options.b2r_transport, ExchangeOptions::B2rTransport::automatic);
  o.arena_unit = "32M";
  o.coop_form = "called";
  o.graph_steps = 7;
  o.b2r_transport = "events";
  const RunConfig fixed = applied(o, "cuda");
  EXPECT_EQ(fixed.cuda_engine.arena_unit, std::size_t(32) << 20);
  EXPECT_EQ(fixed.exchange_options.coop_form, ExchangeOptions::CoopForm::called);
  EXPECT_EQ(fixed.exchange_options.graph_steps, 7);
  EXPECT_EQ(fixed.exchange_options.b2r_transport, ExchangeOptions::B2rTransport::events);
  o = {};
  o.coop_form = "inlined";
  EXPECT_EQ(applied(o, "cuda", "coop").exchange_options.coop_form, ExchangeOptions::CoopForm::inlined);
  o = {};
  o.b2r_transport = "counters";
  EXPECT_EQ(applied(o, "cuda", "b2r").exchange_options.b2r_transport, ExchangeOptions::B2rTransport::counters);
}

// A value no option takes, and a choice the run would ignore (another engine, another backend).
TEST(Choices, RefuseWhatCannotApply) {
  const auto refused = [](SplitOptions o, const std::string& engine, const std::string& exchange,
                          const std::string& says) {
    try {
      applied(o, engine, exchange);
      ADD_FAILURE() << "accepted: " << says;
    } catch (const UsageError& e) {
      EXPECT_THAT(e.what(), HasSubstr(says));
    }
  };
  SplitOptions o;
  o.arena_unit = "8M";
  refused(o, "cuda", "", "--arena-unit 8M: must be auto, 2M, 32M or 1G");
  o.arena_unit = "2M";
  refused(o, "host", "", "--arena-unit 2M needs the cuda engine");
  o = {};
  o.coop_form = "fast";
  refused(o, "cuda", "", "--coop-form fast: must be auto, inlined or called");
  o.coop_form = "called";
  refused(o, "cuda", "overlap", "--coop-form called is coop's, and this run uses --exchange overlap");
  refused(o, "host", "", "are for backends of the cuda engine");
  o = {};
  o.graph_steps = 8;
  refused(o, "cuda", "coop", "--graph-steps 8 is for the backends that replay steps");
  o = {};
  o.b2r_transport = "pigeons";
  refused(o, "cuda", "", "--b2r-transport pigeons: must be auto, counters or events");
  o.b2r_transport = "events";
  refused(o, "cuda", "graph", "--b2r-transport events is b2r's");
}

// The command line: the options are documented in the help of run and bench, and a bad value or a
// choice for another engine exits 2 before anything is written.
TEST(Choices, CommandLineTakesAndRefusesThem) {
  for (const char* command : {"run", "bench"}) {
    const auto help = testing::run_yeex(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0) << help.output;
    for (const char* option : {"--arena-unit", "--coop-form", "--graph-steps", "--b2r-transport"})
      EXPECT_THAT(help.output, HasSubstr(option)) << command;
  }
  testing::ScratchDir dir;
  const std::string run = "run --engine host --steps 2 --quiet --output " + (dir / "out").string() + " ";
  for (const char* bad : {"--arena-unit 3M", "--coop-form fastest", "--graph-steps 0", "--b2r-transport copy",
                          "--arena-unit 2M", "--coop-form called", "--graph-steps 4", "--b2r-transport events"}) {
    const auto r = testing::run_yeex(run + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << bad;
  }
  const auto fine = testing::run_yeex(run + "--arena-unit auto --coop-form auto --b2r-transport auto");
  EXPECT_EQ(fine.exit_code, 0) << fine.output;
}

}  // namespace
}  // namespace yeex
