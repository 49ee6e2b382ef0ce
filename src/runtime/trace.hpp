// Trace: what every slab's lanes did during a window of steps (yeex run --trace, bench --trace),
// written as Chrome/Perfetto trace JSON (ui.perfetto.dev, chrome://tracing).
//
// A phase is one piece of work on one lane: an H or E sweep (whole, bulk or a border), the
// issue of a halo phase's transfers, a wait on a neighbour, a host barrier, sources, probes, or
// coop's persistent kernel. Times are microseconds on the host's steady clock (device engines map
// their events onto it: Engine::trace_mark), so the lanes of every GPU share one axis. The
// exchange backends add the phases of the steps in the window (HaloExchange's trace spans);
// adding is thread-safe, one batch per subdomain thread at a time.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace yeex {

// The lanes of a slab: its engine's two queues (kernels/engine.hpp's Lane; the host engine has one
// queue and reports what it issued where the GPU would have run it) and the host thread that
// drives it.
enum class TraceLane : int { host_thread = 0, border = 1, bulk = 2 };

struct TracePhase {
  int device = -1;  // GPU ordinal; -1: the host engine
  int slab = 0;
  TraceLane lane = TraceLane::bulk;
  // A literal (phases are noted in the step loops), e.g. "H bulk", "transfer before-h". Its first
  // word is the phase's kind, the class a picture colours it by: H, E, transfer, await, barrier,
  // sync, issue, sources, probes, kernel (trace_kind).
  const char* name = "";
  std::int64_t step = 0;
  double begin_us = 0, end_us = 0;
  std::int64_t steps = 1;  // steps the phase covers (coop's kernel: a launch's)
};

class Trace {
 public:
  // Steps [first, first + count) are traced.
  Trace(std::int64_t first, std::int64_t count) : first_(first), count_(count) {}

  // Moves the window (bench --trace: onto the traced repeat, once the warm-up is known).
  void set_window(std::int64_t first, std::int64_t count) { first_ = first, count_ = count; }
  std::int64_t first() const { return first_; }
  std::int64_t count() const { return count_; }
  std::int64_t end() const { return first_ + count_; }
  bool covers(std::int64_t step) const { return step >= first_ && step < first_ + count_; }
  // Whether steps [first, first + count) meet the window.
  bool meets(std::int64_t first, std::int64_t count) const {
    return count_ > 0 && first < end() && first + count > first_;
  }

  // Thread-safe.
  void add(const std::vector<TracePhase>& phases);
  // A key of the file's "otherData" (deck, backend, grid, provenance, ...).
  void set_metadata(const std::string& key, nlohmann::json value);

  std::vector<TracePhase> phases() const;  // in the order added
  std::size_t size() const;
  // Slabs that have phases.
  int slabs() const;
  // The Chrome trace JSON: traceEvents ("X" events, ts and dur in microseconds from the first
  // phase's begin; process_name and thread_name metadata: one process per GPU or "host", one
  // thread per slab lane) and otherData (the metadata, the window, the phase kinds).
  nlohmann::json json() const;

 private:
  std::int64_t first_, count_;
  mutable std::mutex mutex_;
  std::vector<TracePhase> phases_;
  nlohmann::json metadata_ = nlohmann::json::object();
};

// The window of `yeex run --trace`: `spec` "FIRST:COUNT" (whole numbers, COUNT from 1 to
// kMaxTraceSteps, the window inside the run's `steps`), or, empty, the default: kDefaultTraceSteps
// steps after the first kDefaultTraceStart (the warm-up: first launches, trials), moved back and
// shortened to fit a shorter run. Throws std::invalid_argument naming the problem.
inline constexpr std::int64_t kDefaultTraceStart = 10, kDefaultTraceSteps = 4;
inline constexpr std::int64_t kMaxTraceSteps = 1000;  // every phase of every step is kept until the file is written
std::pair<std::int64_t, std::int64_t> trace_window(const std::string& spec, std::int64_t steps);

// The line a traced command prints: "trace: 4 steps (10-13), 312 phases, 2 slabs; traced steps
// 41 µs/step against 38 µs/step untraced (+8 %) -> FILE". untraced_seconds_per_step <= 0: no
// untraced steps to compare with.
std::string trace_summary(const Trace& trace, double traced_seconds_per_step, double untraced_seconds_per_step,
                          const std::string& file);

// "slab 1 border", "slab 1 bulk", "slab 1 host thread".
std::string trace_lane_label(int slab, TraceLane lane);
// The kind of a phase: its name's first word.
std::string trace_kind(const std::string& name);
// "GPU 0", "host".
std::string trace_process_label(int device);

}  // namespace yeex
