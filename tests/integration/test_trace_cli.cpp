// `yeex run --trace` and `yeex bench --trace` as a user meets them: a valid Chrome trace with the
// phases of the window's steps and the cost printed; a bad window is exit 2 with a message, and
// nothing written, neither the trace nor the run's folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using ::testing::HasSubstr;
using testing::read_json;
using testing::run_yeex;
using testing::ScratchDir;

// The phase names and steps of a trace file's complete ("X") events.
struct TraceContents {
  std::set<std::string> names, lanes;
  std::set<int> steps;
};
TraceContents contents(const std::filesystem::path& file) {
  const nlohmann::json j = read_json(file);  // throws unless valid JSON
  TraceContents c;
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") c.lanes.insert(e.at("args").at("name").get<std::string>());
    if (e.at("ph") != "X") continue;
    c.names.insert(e.at("name").get<std::string>());
    c.steps.insert(e.at("args").at("step").get<int>());
  }
  return c;
}

const std::string kTwoSlabs = "run --engine host --subdomains 2 --exchange host-staged --steps 20 --quiet ";

TEST(TraceCli, RunWritesTheWindowsPhasesAndPrintsTheCost) {
  ScratchDir dir;
  const auto trace = dir / "trace.json";
  const auto r = run_yeex("run --engine host --subdomains 2 --exchange host-staged --steps 20 --output " +
                          (dir / "out").string() + " --trace " + trace.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("trace: 4 steps (10-13)"));
  EXPECT_THAT(r.output, HasSubstr("2 slabs; traced steps"));
  EXPECT_THAT(r.output, HasSubstr("untraced"));
  const TraceContents c = contents(trace);
  EXPECT_EQ(c.steps, (std::set<int>{10, 11, 12, 13}));
  for (const char* name : {"H", "E", "sources", "probes", "transfer before-h", "transfer before-e", "barrier"})
    EXPECT_TRUE(c.names.count(name)) << name;
  EXPECT_EQ(c.lanes, (std::set<std::string>{"slab 0 host thread", "slab 0 bulk", "slab 1 host thread", "slab 1 bulk"}));
  EXPECT_EQ(read_json(trace).at("otherData").at("backend"), "host-staged");
}

TEST(TraceCli, TraceStepsPicksTheWindow) {
  ScratchDir dir;
  const auto trace = dir / "trace.json";
  const auto r =
      run_yeex(kTwoSlabs + "--output " + (dir / "out").string() + " --trace " + trace.string() + " --trace-steps 17:3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(contents(trace).steps, (std::set<int>{17, 18, 19}));
}

TEST(TraceCli, BadWindowsAreExitTwoAndWriteNothing) {
  for (const std::string steps : {"19:4", "x", "5:0", "-2:1", "0:5000"}) {
    SCOPED_TRACE(steps);
    ScratchDir dir;
    const auto trace = dir / "trace.json";
    const auto r = run_yeex(kTwoSlabs + "--output " + (dir / "out").string() + " --trace " + trace.string() +
                            " --trace-steps " + steps);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_THAT(r.output, HasSubstr("--trace-steps"));
    EXPECT_FALSE(std::filesystem::exists(trace));
    EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  }
  ScratchDir dir;
  const auto r = run_yeex(kTwoSlabs + "--output " + (dir / "out").string() + " --trace-steps 1:2");
  EXPECT_EQ(r.exit_code, 2) << "--trace-steps without --trace: " << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(TraceCli, BenchTracesOneRepeatOfTheFirstRowOfTwoSlabs) {
  ScratchDir dir;
  const auto trace = dir / "bench.json";
  const std::string bench = "bench --engine host --size 16 --steps 3 --warmup 1 --repeats 1 --exchanges host-staged ";
  const auto r = run_yeex(bench + "--counts 1,2 --trace " + trace.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("trace: 3 steps"));
  const TraceContents c = contents(trace);
  EXPECT_EQ(c.steps.size(), 3u);
  EXPECT_TRUE(c.names.count("transfer before-h"));
  const auto none = run_yeex(bench + "--counts 1 --trace " + (dir / "none.json").string());
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_THAT(none.output, HasSubstr("more than one slab"));
  EXPECT_FALSE(std::filesystem::exists(dir / "none.json"));
}

}  // namespace
}  // namespace yeex
