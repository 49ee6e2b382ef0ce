// Threads mode: one persistent host thread per subdomain (per GPU), never one thread switching
// devices. run() hands every member the same job and returns when all are done; inside a job the
// members meet at barrier(). If a member throws, the barrier breaks: the others leave it with
// TeamAborted instead of waiting forever, and run() rethrows the first error.
//
// The barrier spins before it sleeps: the exchange backends meet once or twice per Yee step, a
// few tens of microseconds apart at small grids, and waking a thread blocked on a condition
// variable takes about as long, which then delays every CUDA call that thread issues next (see
// barrier()).
//
// Each member pins itself, when it starts, to the CPUs that the process's pinning plan gives its
// index (src/runtime/placement.hpp: the CPUs local to the member's GPU); a team larger than the
// plan is not pinned.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace yeex {

class TeamAborted : public std::runtime_error {
 public:
  TeamAborted() : std::runtime_error("another thread of the team failed") {}
};

class ThreadTeam {
 public:
  explicit ThreadTeam(int size);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return size_; }
  // Members pinned to their plan's CPUs when they started.
  int pinned() const { return pinned_.load(); }
  // Runs job(member) on every member concurrently; rethrows the first exception.
  void run(const std::function<void(int member)>& job);
  // Waits until every member has arrived (inside a job only).
  void barrier();

 private:
  void work(int member);
  void fail(std::exception_ptr error);

  int size_;
  bool spin_;  // barrier() spins before it sleeps (see there)
  std::mutex mutex_;
  std::condition_variable wake_, done_, meet_;
  const std::function<void(int)>* job_ = nullptr;
  long generation_ = 0;  // job number
  int finished_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  // barrier state: atomics, read by spinning members without the mutex
  std::atomic<int> arrived_{0};
  std::atomic<long> barrier_generation_{0};
  std::atomic<bool> broken_{false};
  std::atomic<int> pinned_{0};
  std::atomic<int> started_{0};
  std::vector<std::thread> threads_;
};

}  // namespace yeex
