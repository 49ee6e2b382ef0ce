#include "src/runtime/labelled_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace yeex {

std::string fixed(double value, int decimals) {
  if (std::isnan(value)) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

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

nlohmann::json to_json(const Matrix& m) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& row : m.values) {
    nlohmann::json r = nlohmann::json::array();
    for (double v : row) r.push_back(std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v));
    values.push_back(r);
  }
  return {{"title", m.title},
          {"definition", m.definition},
          {"unit", m.unit},
          {"row_label", m.row_label},
          {"column_label", m.column_label},
          {"rows", m.rows},
          {"columns", m.columns},
          {"values", values}};
}

}  // namespace yeex
