#include "src/p2p/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "src/p2p/options.hpp"

namespace yeex::p2p {
namespace {

nlohmann::json number_or_null(double value) {
  return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

}  // namespace

std::string format_curve(const Curve& curve) {
  std::string out = "# " + curve.title + "\n# " + curve.definition + "\n";
  // NCCL curves follow nccl-tests: time, then algbw and busbw.
  const bool nccl =
      std::any_of(curve.points.begin(), curve.points.end(), [](const auto& p) { return !std::isnan(p.bus_gbps); });
  if (nccl)
    out += "#" + pad("bytes", 13) + pad("size", 12) + pad("time us", 11) + pad("algbw", 11) + pad("busbw", 11) + "\n";
  else
    out += "#" + pad("bytes", 13) + pad("size", 12) + pad("GB/s", 11) + pad("us", 11) + "\n";
  for (const auto& p : curve.points) {
    out += pad(std::to_string(p.bytes), 14) + pad(format_size(p.bytes), 12);
    if (nccl)
      out += pad(fixed(p.microseconds, 2), 11) + pad(fixed(p.gbps, 2), 11) + pad(fixed(p.bus_gbps, 2), 11) + "\n";
    else
      out += pad(fixed(p.gbps, 2), 11) + pad(fixed(p.microseconds, 2), 11) + "\n";
  }
  return out;
}

nlohmann::json to_json(const Curve& curve) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : curve.points) {
    nlohmann::json point{{"bytes", p.bytes}, {"gbps", number_or_null(p.gbps)}, {"us", number_or_null(p.microseconds)}};
    if (!std::isnan(p.bus_gbps)) point["busbw_gbps"] = p.bus_gbps;
    points.push_back(point);
  }
  return {{"title", curve.title}, {"definition", curve.definition}, {"points", points}};
}

nlohmann::json to_json(const TestResult& result) {
  nlohmann::json matrices = nlohmann::json::array(), curves = nlohmann::json::array();
  for (const auto& m : result.matrices) matrices.push_back(to_json(m));
  for (const auto& c : result.curves) curves.push_back(to_json(c));
  return {{"test", result.test}, {"matrices", matrices}, {"curves", curves}};
}

}  // namespace yeex::p2p
