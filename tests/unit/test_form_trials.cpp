// FormTrials (src/exchange/form_trials.hpp): how coop times its kernel's two forms in a run and
// keeps the faster. The GPU side (the forms give the same bits, probes land in their slots when a
// call is split into trials) is tests/gpu/test_multi_gpu.cpp's CoopFormsAndTrialsKeepTheBits.
#include "src/exchange/form_trials.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace yeex {
namespace {

struct Taken {
  Index steps;
  bool form, timed;
  bool operator==(const Taken&) const = default;
};

// The launches of one advance() call of `count` steps, each trial "timed" at seconds[form].
std::vector<Taken> call(FormTrials& t, Index count, const double (&seconds)[2]) {
  std::vector<Taken> launches;
  for (Index done = 0; done < count;) {
    const FormTrials::Launch next = t.next(count - done);
    launches.push_back({next.steps, next.form, next.timed});
    if (next.timed) t.record(next.form, seconds[next.form]);
    done += next.steps;
  }
  return launches;
}

TEST(FormTrials, AlternatesFourTrialsThenKeepsTheFaster) {
  FormTrials t(10, std::nullopt);
  const double seconds[2] = {2e-6, 1e-6};  // form 1 faster
  // A call of 25 steps: trials of 10, 10 and the 5 left; the next call: the fourth trial, then
  // the rest in one launch of the chosen form.
  EXPECT_EQ(call(t, 25, seconds), (std::vector<Taken>{{10, false, true}, {10, true, true}, {5, false, true}}));
  EXPECT_FALSE(t.decided());
  EXPECT_EQ(call(t, 30, seconds), (std::vector<Taken>{{10, true, true}, {20, true, false}}));
  EXPECT_TRUE(t.decided());
  EXPECT_TRUE(t.form());
  EXPECT_EQ(call(t, 1000, seconds), (std::vector<Taken>{{1000, true, false}}));
}

TEST(FormTrials, SaysHowManyTrialStepsAreLeft) {
  FormTrials t(10, std::nullopt);
  const double seconds[2] = {1e-6, 2e-6};
  EXPECT_EQ(t.steps_to_decide(), 40);
  call(t, 15, seconds);  // trials of 10 and 5
  EXPECT_EQ(t.steps_to_decide(), 20);
  call(t, t.steps_to_decide(), seconds);  // what yeex bench runs after its warm-up
  EXPECT_TRUE(t.decided());
  EXPECT_EQ(t.steps_to_decide(), 0);
  EXPECT_EQ(FormTrials(10, true).steps_to_decide(), 0);
}

TEST(FormTrials, ShortCallsMakeShortTrials) {
  FormTrials t(256, std::nullopt);
  const double seconds[2] = {1e-6, 3e-6};  // form 0 faster
  for (int trial = 0; trial < FormTrials::kTrials; ++trial)
    EXPECT_EQ(call(t, 8, seconds), (std::vector<Taken>{{8, trial % 2 == 1, true}}));
  EXPECT_TRUE(t.decided());
  EXPECT_FALSE(t.form());
}

TEST(FormTrials, EachFormKeepsItsBetterTrial) {
  FormTrials t(5, std::nullopt);
  // The first trial of form 0 carries the start-up (slow); its second is the fastest of all.
  for (const auto& [form, seconds] :
       {std::pair{false, 9.0}, std::pair{true, 2.0}, std::pair{false, 1.0}, std::pair{true, 3.0}}) {
    ASSERT_FALSE(t.decided());
    EXPECT_EQ(t.next(100).form, form);
    t.record(form, seconds);
  }
  EXPECT_FALSE(t.form());
  EXPECT_EQ(t.best(false), 1.0);
  EXPECT_EQ(t.best(true), 2.0);
  EXPECT_EQ(t.describe("a", "b", "X"), "a (timed: 1000000.00 us/step a, 2000000.00 b)");
}

TEST(FormTrials, TheTeamsTimesDecideOnceDecided) {
  FormTrials t(10, std::nullopt);
  t.agree(1.0, 2.0);  // before its own trials: ignored
  EXPECT_FALSE(t.decided());
  const double seconds[2] = {2e-6, 1e-6};  // alone it would call
  call(t, 40, seconds);
  EXPECT_TRUE(t.form());
  t.agree(3e-6, 4e-6);  // the team is slower with form 1 (its slowest subdomain)
  EXPECT_FALSE(t.form());
  EXPECT_EQ(t.describe("a", "b", "X"), "a (timed: 3.00 us/step a, 4.00 b)");
  FormTrials fixed(10, true);
  fixed.agree(1.0, 2.0);
  EXPECT_TRUE(fixed.form());
}

TEST(FormTrials, AFixedFormRunsWholeCallsUntimed) {
  for (bool form : {false, true}) {
    FormTrials t(10, form);
    EXPECT_TRUE(t.decided());
    EXPECT_TRUE(t.fixed());
    const double seconds[2] = {1e-6, 1e-6};
    EXPECT_EQ(call(t, 25, seconds), (std::vector<Taken>{{25, form, false}}));
    EXPECT_EQ(t.describe("a", "b", "X=1"), std::string(form ? "b" : "a") + " (fixed by X=1)");
  }
}

TEST(FormTrials, UnfinishedTrialsSaySo) {
  FormTrials t(10, std::nullopt);
  const double seconds[2] = {1e-6, 2e-6};
  call(t, 15, seconds);
  EXPECT_EQ(t.describe("a", "b", "X"), "a (trials unfinished)");
}

TEST(FormTrials, TrialLengthIsAHundredMillionCellsBetweenTwoAnd256Steps) {
  EXPECT_EQ(FormTrials::steps_for(Index(513) * 513 * 513), 2);   // 512^3 nodes: under one step's worth
  EXPECT_EQ(FormTrials::steps_for(Index(129) * 129 * 129), 46);  // 128^3: 1e8 / 2.15e6
  EXPECT_EQ(FormTrials::steps_for(Index(129) * 129 * 33), 182);  // 128 x 128 x 32
  EXPECT_EQ(FormTrials::steps_for(1000), 256);
  EXPECT_EQ(FormTrials::steps_for(0), 256);
}

}  // namespace
}  // namespace yeex
