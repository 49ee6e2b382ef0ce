#include "src/runtime/trace.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <limits>
#include <map>
#include <set>

namespace yeex {

void Trace::add(const std::vector<TracePhase>& phases) {
  const std::lock_guard<std::mutex> lock(mutex_);
  phases_.insert(phases_.end(), phases.begin(), phases.end());
}

void Trace::set_metadata(const std::string& key, nlohmann::json value) {
  const std::lock_guard<std::mutex> lock(mutex_);
  metadata_[key] = std::move(value);
}

std::vector<TracePhase> Trace::phases() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return phases_;
}

std::size_t Trace::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return phases_.size();
}

int Trace::slabs() const {
  std::set<int> slabs;
  for (const TracePhase& p : phases()) slabs.insert(p.slab);
  return static_cast<int>(slabs.size());
}

std::string trace_lane_label(int slab, TraceLane lane) {
  const char* names[] = {"host thread", "border", "bulk"};
  return "slab " + std::to_string(slab) + " " + names[static_cast<int>(lane)];
}

std::pair<std::int64_t, std::int64_t> trace_window(const std::string& spec, std::int64_t steps) {
  if (spec.empty()) {
    const std::int64_t count = std::min(kDefaultTraceSteps, steps);
    return {std::max<std::int64_t>(0, std::min(kDefaultTraceStart, steps - count)), count};
  }
  const auto whole = [&](const std::string& text) {
    std::size_t used = 0;
    long long value = -1;
    try {
      value = text.empty() || text[0] == '-' || text[0] == '+' ? -1 : std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (value < 0 || used != text.size())
      throw std::invalid_argument("--trace-steps " + spec + ": FIRST:COUNT, two whole numbers (e.g. 10:4)");
    return static_cast<std::int64_t>(value);
  };
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("--trace-steps " + spec + ": FIRST:COUNT, two whole numbers (e.g. 10:4)");
  const std::int64_t first = whole(spec.substr(0, colon)), count = whole(spec.substr(colon + 1));
  if (count < 1 || count > kMaxTraceSteps)
    throw std::invalid_argument("--trace-steps " + spec + ": COUNT must be from 1 to " +
                                std::to_string(kMaxTraceSteps));
  if (first + count > steps)
    throw std::invalid_argument("--trace-steps " + spec + ": the run has " + std::to_string(steps) + " steps (0 to " +
                                std::to_string(steps - 1) + ")");
  return {first, count};
}

std::string trace_summary(const Trace& trace, double traced, double untraced, const std::string& file) {
  char line[512];
  const auto us = [](double seconds) { return seconds * 1e6; };
  std::string compared;
  if (untraced > 0) {
    std::snprintf(line, sizeof line, "traced steps %.4g µs/step against %.4g µs/step untraced (%+.0f %%)", us(traced),
                  us(untraced), 100 * (traced / untraced - 1));
    compared = line;
  } else {
    std::snprintf(line, sizeof line, "traced steps %.4g µs/step (no untraced steps to compare with)", us(traced));
    compared = line;
  }
  std::snprintf(line, sizeof line, "trace: %lld steps (%lld-%lld), %zu phases, %d slabs; ", (long long)trace.count(),
                (long long)trace.first(), (long long)(trace.end() - 1), trace.size(), trace.slabs());
  return line + compared + " -> " + file;
}

std::string trace_kind(const std::string& name) { return name.substr(0, name.find(' ')); }

std::string trace_process_label(int device) { return device < 0 ? "host" : "GPU " + std::to_string(device); }

nlohmann::json Trace::json() const {
  const std::vector<TracePhase> all = phases();
  // Processes: the host engine first, then the GPUs by ordinal; within one, threads by slab and
  // lane (host thread, border, bulk), so that every viewer shows them in the same order.
  std::map<int, int> pid;                       // device -> pid
  std::map<std::pair<int, int>, int> tid_of;    // (slab, lane) -> tid
  std::map<std::pair<int, int>, int> owner_of;  // (slab, lane) -> device
  double origin = std::numeric_limits<double>::infinity();
  for (const TracePhase& p : all) {
    pid.emplace(p.device, 0);
    tid_of.emplace(std::pair{p.slab, static_cast<int>(p.lane)}, 0);
    owner_of.emplace(std::pair{p.slab, static_cast<int>(p.lane)}, p.device);
    origin = std::min(origin, p.begin_us);
  }
  int next = 0;
  for (auto& [device, id] : pid) id = next++;
  next = 1;
  for (auto& [key, id] : tid_of) id = next++;

  nlohmann::json events = nlohmann::json::array();
  for (const auto& [device, id] : pid) {
    events.push_back(
        {{"name", "process_name"}, {"ph", "M"}, {"pid", id}, {"args", {{"name", trace_process_label(device)}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", id}, {"args", {{"sort_index", id}}}});
  }
  for (const auto& [key, id] : tid_of) {
    const int process = pid.at(owner_of.at(key));
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", process},
                      {"tid", id},
                      {"args", {{"name", trace_lane_label(key.first, static_cast<TraceLane>(key.second))}}}});
    events.push_back(
        {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", process}, {"tid", id}, {"args", {{"sort_index", id}}}});
  }
  for (const TracePhase& p : all) {
    nlohmann::json args = {{"step", p.step}, {"slab", p.slab}};
    if (p.steps != 1) args["steps"] = p.steps;
    events.push_back({{"name", p.name},
                      {"cat", trace_kind(p.name)},
                      {"ph", "X"},
                      {"pid", pid.at(p.device)},
                      {"tid", tid_of.at({p.slab, static_cast<int>(p.lane)})},
                      {"ts", p.begin_us - origin},
                      {"dur", std::max(0.0, p.end_us - p.begin_us)},
                      {"args", args}});
  }
  nlohmann::json other;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    other = metadata_;
  }
  other["format"] = "yeex-trace-1";
  other["steps"] = {{"first", first_}, {"count", count_}};
  other["phases"] = all.size();
  other["time_unit"] = "microseconds from the window's first phase; host steady clock (GPU events mapped onto it)";
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}, {"otherData", other}};
}

}  // namespace yeex
