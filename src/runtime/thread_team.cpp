#include "src/runtime/thread_team.hpp"

#include <algorithm>
#include <chrono>

#include "src/runtime/placement.hpp"

namespace yeex {

namespace {
// Whether a team of `size` spins at its barriers: when the machine has a hardware thread for every
// member (else a spinning member would take the core of the one it waits for).
bool team_spins(int size) { return static_cast<unsigned>(size) <= std::max(1u, std::thread::hardware_concurrency()); }
}  // namespace

ThreadTeam::ThreadTeam(int size) : size_(size), spin_(team_spins(size)) {
  if (size < 1) throw std::invalid_argument("a thread team needs at least one member");
  const std::vector<std::vector<int>> plan = thread_pinning();
  const bool pin = plan.size() >= static_cast<std::size_t>(size);
  for (int m = 0; m < size; ++m)
    threads_.emplace_back([this, m, cpus = pin ? plan[m] : std::vector<int>()] {
      if (pin_current_thread(cpus)) ++pinned_;
      ++started_;
      work(m);
    });
  // pinned() is exact once every member has started (before the first job).
  while (started_.load() < size) std::this_thread::yield();
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadTeam::run(const std::function<void(int)>& job) {
  std::unique_lock lock(mutex_);
  job_ = &job;
  finished_ = 0;
  error_ = nullptr;
  broken_ = false;
  arrived_ = 0;
  ++generation_;
  wake_.notify_all();
  done_.wait(lock, [&] { return finished_ == size_; });
  job_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

// Members spin on the generation for up to kBarrierSpin, then sleep on the condition variable.
// The last member to arrive resets the count, advances the generation, and takes the mutex before
// notifying: a member that checked the generation under the mutex and found it unchanged is then
// already waiting, so no wake-up is lost. A team with more members than the machine has hardware
// threads does not spin (spinners would take the cores the late members need).
namespace {
constexpr auto kBarrierSpin = std::chrono::microseconds(200);
}  // namespace

void ThreadTeam::barrier() {
  if (broken_.load(std::memory_order_acquire)) throw TeamAborted();
  const long my_generation = barrier_generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_) {
    arrived_.store(0, std::memory_order_relaxed);  // nobody arrives again before the generation moves
    barrier_generation_.store(my_generation + 1, std::memory_order_release);
    { std::lock_guard lock(mutex_); }
    meet_.notify_all();
    return;
  }
  const auto passed = [&] {
    return barrier_generation_.load(std::memory_order_acquire) != my_generation ||
           broken_.load(std::memory_order_acquire);
  };
  const auto spin_until = std::chrono::steady_clock::now() + (spin_ ? kBarrierSpin : std::chrono::microseconds(0));
  for (unsigned polls = 1; !passed(); ++polls)
    if ((!spin_ || polls % 64 == 0) && std::chrono::steady_clock::now() >= spin_until) {
      std::unique_lock lock(mutex_);
      meet_.wait(lock, passed);
      break;
    }
  if (barrier_generation_.load(std::memory_order_acquire) == my_generation) throw TeamAborted();
}

void ThreadTeam::fail(std::exception_ptr error) {
  std::lock_guard lock(mutex_);
  if (!error_) error_ = error;
  broken_.store(true, std::memory_order_release);
  meet_.notify_all();
}

void ThreadTeam::work(int member) {
  long seen = 0;
  for (;;) {
    const std::function<void(int)>* job = nullptr;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    try {
      (*job)(member);
    } catch (const TeamAborted&) {
      // another member's error is the one reported
    } catch (...) {
      fail(std::current_exception());
    }
    {
      std::lock_guard lock(mutex_);
      ++finished_;
    }
    done_.notify_all();
  }
}

}  // namespace yeex
