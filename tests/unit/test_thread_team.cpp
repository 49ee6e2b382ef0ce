// ThreadTeam (src/runtime/thread_team.hpp): the barrier separates phases for every member, on its
// spinning path and on its sleeping one (a member that arrives late), a member that throws breaks
// it (the others leave instead of waiting forever, run() rethrows the first error), and the team
// runs the next job normally after that.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "src/runtime/thread_team.hpp"

namespace yeex {
namespace {

// Every member writes the round into its slot, meets the others, and then sees every slot at that
// round; a second barrier keeps the next round's writes out of the checks. `late`: the member that
// sleeps before each of its writes (its partners fall asleep at the barrier).
void expect_rounds_in_step(ThreadTeam& team, int rounds, int late = -1) {
  std::vector<std::atomic<int>> slot(static_cast<std::size_t>(team.size()));
  std::atomic<int> mismatches{0};
  team.run([&](int m) {
    for (int r = 1; r <= rounds; ++r) {
      if (m == late) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      slot[m].store(r);
      team.barrier();
      for (const auto& s : slot)
        if (s.load() != r) ++mismatches;
      team.barrier();
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(ThreadTeam, BarrierSeparatesPhases) {
  for (int size : {1, 2, 3, 4, 8}) {
    ThreadTeam team(size);
    expect_rounds_in_step(team, 2000);
  }
}

TEST(ThreadTeam, BarrierWaitsForALateMember) {
  ThreadTeam team(3);
  expect_rounds_in_step(team, 20, 2);
}

TEST(ThreadTeam, AThrowingMemberBreaksTheBarrierAndTheTeamGoesOn) {
  ThreadTeam team(4);
  std::atomic<int> aborted{0};
  const auto failing = [&](int m) {
    try {
      if (m == 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the others are asleep by now
        throw std::runtime_error("member 1 failed");
      }
      for (int r = 0; r < 3; ++r) team.barrier();
    } catch (const TeamAborted&) {
      ++aborted;
      throw;
    }
  };
  try {
    team.run(failing);
    FAIL() << "run() returned";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "member 1 failed");
  }
  EXPECT_EQ(aborted.load(), 3);
  expect_rounds_in_step(team, 100);
}

}  // namespace
}  // namespace yeex
