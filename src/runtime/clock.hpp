// Wall-clock timing on the host, shared by the solver, the exchange backends, the benchmark and
// the validation suite.
#pragma once

#include <chrono>

namespace yeex {

using Clock = std::chrono::steady_clock;

// Seconds elapsed since t0.
inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace yeex
