#include "src/runtime/interrupts.hpp"

#include <cstring>
#include <ctime>

namespace yeex {
namespace {

volatile std::sig_atomic_t caught = 0;
volatile std::sig_atomic_t caught_second = 0;  // CLOCK_MONOTONIC second of the first signal

// A repeat within about a second is the same request delivered twice (timeout(1) and batch systems
// signal both the process and its group); a later one is a second Ctrl-C: the default action, now.
extern "C" void note_signal(int signal) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  if (caught == 0) {
    caught_second = static_cast<std::sig_atomic_t>(now.tv_sec);
    caught = signal;
  } else if (now.tv_sec - caught_second > 1) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}

}  // namespace

InterruptWatch::InterruptWatch() {
  caught = 0;
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &previous_interrupt_);
  sigaction(SIGTERM, &action, &previous_terminate_);
}

InterruptWatch::~InterruptWatch() {
  sigaction(SIGINT, &previous_interrupt_, nullptr);
  sigaction(SIGTERM, &previous_terminate_, nullptr);
}

int interrupt_signal() { return caught; }

RunInterrupted::RunInterrupted(int signal, long long step, long long steps)
    : std::runtime_error(std::string("interrupted (") +
                         (signal == SIGINT    ? "SIGINT"
                          : signal == SIGTERM ? "SIGTERM"
                                              : strsignal(signal)) +
                         ") after step " + std::to_string(step) + " of " + std::to_string(steps) +
                         "; the files it had begun are removed"),
      signal_(signal) {}

}  // namespace yeex
