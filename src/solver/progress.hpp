// The progress line of a run with its ETA, on stderr.
#pragma once

#include <unistd.h>

#include <cstdio>

#include "decomposition/grid.hpp"
#include "src/runtime/clock.hpp"

namespace yeex {

// Progress line with ETA: carriage-return updates on a terminal, a line every 10 s otherwise.
class Progress {
 public:
  Progress(bool enabled, Index steps, Index cells)
      : enabled_(enabled), tty_(isatty(STDERR_FILENO)), steps_(steps), cells_(cells) {}

  bool due() const { return enabled_ && seconds_since(last_) >= (tty_ ? 0.5 : 10.0) && seconds_since(start_) >= 2.0; }
  void show(Index done) {
    last_ = Clock::now();
    const double elapsed = seconds_since(start_), rate = done / elapsed;
    std::fprintf(stderr, "%sstep %lld/%lld (%3.0f%%)  %.2f Gcells/s  ETA %.0f s%s", tty_ ? "\r" : "",
                 static_cast<long long>(done), static_cast<long long>(steps_), 100.0 * done / steps_,
                 rate * cells_ / 1e9, (steps_ - done) / rate, tty_ ? "   " : "\n");
    shown_ = true;
  }
  ~Progress() {
    if (shown_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_, tty_, shown_ = false;
  Index steps_, cells_;
  Clock::time_point start_ = Clock::now(), last_ = Clock::now();
};

}  // namespace yeex
