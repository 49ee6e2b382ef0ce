// Ctrl-C (SIGINT) and SIGTERM during a run: instead of dying with its files half written, the run
// stops at the end of its current chunk of steps (at most about a quarter of a second), unwinds,
// and removes what it had started to write (io/atomic_file.hpp). A second signal more than a
// second later (a second Ctrl-C) ends the process at once, as usual.
#pragma once

#include <csignal>
#include <stdexcept>
#include <string>

namespace yeex {

// While one lives, SIGINT and SIGTERM only set a flag; the previous handlers come back after it.
class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

 private:
  struct sigaction previous_interrupt_ {
  }, previous_terminate_{};
};

// The signal caught under the current watch, or 0.
int interrupt_signal();

// Thrown by a run that a signal stopped: the exit code is 128 + the signal, as the shell's.
class RunInterrupted : public std::runtime_error {
 public:
  RunInterrupted(int signal, long long step, long long steps);
  int exit_code() const { return 128 + signal_; }

 private:
  int signal_;
};

}  // namespace yeex
