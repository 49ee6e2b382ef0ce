#include "src/bench/exchange_model.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "decomposition/halo_plan.hpp"
#include "decomposition/slab_decomposition.hpp"
#include "kernels/field_layout.hpp"

namespace yeex {

P2PSweep parse_p2p_sweep(const nlohmann::json& document, const std::string& source) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(source + ": " + why + " (expected the JSON of `yeex-p2p --test sweep --json FILE`)");
  };
  P2PSweep sweep{source, {}};
  if (!document.is_object() || !document.contains("results") || !document["results"].is_array())
    throw bad("no \"results\"");
  for (const auto& result : document["results"]) {
    if (!result.is_object() || result.value("test", "") != "sweep" || !result.contains("curves")) continue;
    for (const auto& c : result["curves"]) {
      MessageCurve curve;
      const std::string title = c.value("title", "");
      char tail = 0;
      if (std::sscanf(title.c_str(), "sweep/%d->%d%c", &curve.src, &curve.dst, &tail) != 2)
        throw bad("curve title '" + title + "' is not sweep/SRC->DST");
      if (!c.contains("points") || !c["points"].is_array()) throw bad("curve " + title + " has no points");
      for (const auto& p : c["points"]) {
        if (!p.is_object() || !p.contains("bytes") || !p.contains("us") || !p["bytes"].is_number() ||
            !p["us"].is_number())
          continue;  // a point the sweep could not measure (null)
        const double bytes = p["bytes"].get<double>(), us = p["us"].get<double>();
        if (!(bytes > 0) || !(us > 0)) throw bad("curve " + title + " has a point with non-positive size or time");
        curve.points.push_back({bytes, us * 1e-6});
      }
      std::sort(curve.points.begin(), curve.points.end(),
                [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
      if (!curve.points.empty()) sweep.curves.push_back(curve);
    }
  }
  if (sweep.curves.empty()) throw bad("no sweep curve with measured points");
  return sweep;
}

P2PSweep load_p2p_sweep(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::invalid_argument("--p2p-json " + path.string() + ": is a folder");
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--p2p-json: cannot read " + path.string());
  nlohmann::json document;
  try {
    in >> document;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("--p2p-json: " + path.string() + " is not JSON: " + e.what());
  }
  try {
    return parse_p2p_sweep(document, "--p2p-json " + path.string());
  } catch (const nlohmann::json::exception& e) {  // a value of the wrong type somewhere in the sweep
    throw std::invalid_argument("--p2p-json: " + path.string() + " is not a yeex-p2p sweep: " + e.what());
  }
}

double message_seconds(const MessageCurve& curve, double bytes) {
  const auto& p = curve.points;
  if (p.empty()) return NAN;
  if (bytes <= p.front().bytes) return p.front().seconds;
  if (bytes >= p.back().bytes) return p.back().seconds * bytes / p.back().bytes;
  const auto upper = std::upper_bound(p.begin(), p.end(), bytes, [](double b, const auto& q) { return b < q.bytes; });
  const auto lower = upper - 1;
  const double f = std::log(bytes / lower->bytes) / std::log(upper->bytes / lower->bytes);
  return std::exp(std::log(lower->seconds) + f * (std::log(upper->seconds) - std::log(lower->seconds)));
}

std::vector<HaloMessage> halo_messages(const GridShape& grid, int subdomains, Index halo_depth,
                                       std::size_t element_size) {
  const SlabDecomposition d(grid, subdomains, halo_depth);
  const HaloPlan plan = halo_plan(d, halo_depth);
  // Every subdomain has the same nx, ny and so the same padded plane (as the engines lay it out).
  const Index plane = FieldLayout::make(grid.nx + 1, grid.ny + 1, 1, halo_depth, element_size).pitch_z;
  std::vector<HaloMessage> messages;
  for (HaloPhase phase : kAllHaloPhases)
    for (const HaloTransfer& t : plan.transfers(phase))
      for (std::size_t c = 0; c < t.components.size(); ++c)
        messages.push_back({t.from, t.to, double(t.source.count() * plane) * double(element_size),
                            phase == HaloPhase::BeforeBlock ? int(halo_depth) : 1});
  return messages;
}

double predicted_exchange_seconds(const P2PSweep& sweep, const GridShape& grid, const std::vector<int>& devices,
                                  Index halo_depth, std::size_t element_size) {
  const int n = static_cast<int>(devices.size());
  if (n < 2 || sweep.curves.empty()) return NAN;
  const auto seconds = [&](int src, int dst, double bytes) {
    for (const auto& c : sweep.curves)
      if (c.src == src && c.dst == dst) return message_seconds(c, bytes);
    for (const auto& c : sweep.curves)
      if (c.src == dst && c.dst == src) return message_seconds(c, bytes);
    double slowest = 0;
    for (const auto& c : sweep.curves) slowest = std::max(slowest, message_seconds(c, bytes));
    return slowest;
  };
  std::vector<double> per_subdomain(n, 0.0);
  for (const HaloMessage& m : halo_messages(grid, n, halo_depth, element_size))
    per_subdomain[m.to] += seconds(devices[m.from], devices[m.to], m.bytes) / m.every;
  return *std::max_element(per_subdomain.begin(), per_subdomain.end());
}

std::string exchange_model_definition() {
  return "predicted exchange per step = max over subdomains of the sum, over the halo messages it receives, of the "
         "time per copy the P2P sweep measured at that message size (log-log interpolation), divided by R for "
         "once-per-block messages: the copy engines' wire time (src/bench/exchange_model.hpp)";
}

}  // namespace yeex
