#include "src/runtime/thread_team.hpp"

namespace yeex {

ThreadTeam::ThreadTeam(int size) : size_(size) {
  if (size < 1) throw std::invalid_argument("a thread team needs at least one member");
  for (int m = 0; m < size; ++m) threads_.emplace_back([this, m] { work(m); });
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

void ThreadTeam::barrier() {
  std::unique_lock lock(mutex_);
  if (broken_) throw TeamAborted();
  const long my_generation = barrier_generation_;
  if (++arrived_ == size_) {
    arrived_ = 0;
    ++barrier_generation_;
    meet_.notify_all();
    return;
  }
  meet_.wait(lock, [&] { return barrier_generation_ != my_generation || broken_; });
  if (barrier_generation_ == my_generation) throw TeamAborted();
}

void ThreadTeam::fail(std::exception_ptr error) {
  std::lock_guard lock(mutex_);
  if (!error_) error_ = error;
  broken_ = true;
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
