#include "src/p2p/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "src/p2p/options.hpp"

namespace yeex::p2p {
namespace {

std::string fixed(double value, int decimals) {
  if (std::isnan(value)) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

nlohmann::json number_or_null(double value) { return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value); }

}  // namespace

std::string format_matrix(const Matrix& m) {
  std::string out = "# " + m.title + "\n# cell: " + m.definition;
  if (!m.unit.empty()) out += " [" + m.unit + "]";
  out += "\n# rows: " + m.row_label + ", columns: " + m.column_label + "; '-' = not measured\n";
  const std::string corner = m.row_label + "\\" + m.column_label;
  std::size_t width = std::max<std::size_t>(8, corner.size());
  for (const auto& c : m.columns) width = std::max(width, c.size());
  for (const auto& r : m.rows) width = std::max(width, r.size());
  for (const auto& row : m.values)
    for (double v : row) width = std::max(width, fixed(v, m.decimals).size());
  width += 1;
  out += pad(corner, width);
  for (const auto& c : m.columns) out += pad(c, width);
  out += "\n";
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    out += pad(m.rows[r], width);
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      const double v = r < m.values.size() && c < m.values[r].size() ? m.values[r][c] : NAN;
      out += pad(fixed(v, m.decimals), width);
    }
    out += "\n";
  }
  return out;
}

std::string format_curve(const Curve& curve) {
  std::string out = "# " + curve.title + "\n# " + curve.definition + "\n";
  out += "#" + pad("bytes", 13) + pad("size", 12) + pad("GB/s", 11) + pad("us", 11) + "\n";
  for (const auto& p : curve.points)
    out += pad(std::to_string(p.bytes), 14) + pad(format_size(p.bytes), 12) + pad(fixed(p.gbps, 2), 11) +
           pad(fixed(p.microseconds, 2), 11) + "\n";
  return out;
}

std::string format_topology(const Topology& t) {
  if (t.gpus.empty()) return "# topology: no CUDA device is visible (no GPU, no driver, or a build without CUDA)\n";
  std::string out = "# GPUs (CUDA ordinal, PCI bus id, NUMA node of the GPU memory, nearest host NUMA node; -1 = none/unknown)\n";
  for (const auto& g : t.gpus) {
    char line[512];
    std::snprintf(line, sizeof line, "#  %d  %-14s gpu-numa %2d  host-numa %2d  %s, %s free of %s\n", g.device,
                  g.pci_bus_id.c_str(), g.numa_node, g.host_numa_node, g.name.c_str(), format_size(g.free_bytes).c_str(),
                  format_size(g.total_bytes).c_str());
    out += line;
  }
  for (const auto& m : t.links) out += "\n" + format_matrix(m);
  return out;
}

nlohmann::json to_json(const Matrix& m) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& row : m.values) {
    nlohmann::json r = nlohmann::json::array();
    for (double v : row) r.push_back(number_or_null(v));
    values.push_back(r);
  }
  return {{"title", m.title}, {"definition", m.definition}, {"unit", m.unit}, {"row_label", m.row_label},
          {"column_label", m.column_label}, {"rows", m.rows}, {"columns", m.columns}, {"values", values}};
}

nlohmann::json to_json(const Curve& curve) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : curve.points)
    points.push_back({{"bytes", p.bytes}, {"gbps", number_or_null(p.gbps)}, {"us", number_or_null(p.microseconds)}});
  return {{"title", curve.title}, {"definition", curve.definition}, {"points", points}};
}

nlohmann::json to_json(const TestResult& result) {
  nlohmann::json matrices = nlohmann::json::array(), curves = nlohmann::json::array();
  for (const auto& m : result.matrices) matrices.push_back(to_json(m));
  for (const auto& c : result.curves) curves.push_back(to_json(c));
  return {{"test", result.test}, {"matrices", matrices}, {"curves", curves}};
}

nlohmann::json to_json(const Topology& t) {
  nlohmann::json gpus = nlohmann::json::array(), links = nlohmann::json::array();
  for (const auto& g : t.gpus)
    gpus.push_back({{"device", g.device}, {"name", g.name}, {"pci_bus_id", g.pci_bus_id}, {"numa_node", g.numa_node},
                    {"host_numa_node", g.host_numa_node}, {"free_bytes", g.free_bytes}, {"total_bytes", g.total_bytes}});
  for (const auto& m : t.links) links.push_back(to_json(m));
  return {{"gpus", gpus}, {"links", links}};
}

}  // namespace yeex::p2p
