#include "src/survey/link_matrices.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace yeex {

namespace {

enum class Kind { none, peer_uni, staged_uni, peer_bi, staged_bi, peer_latency, staged_latency };

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool whole_number(const std::string& s) {
  return !s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A cell: a number, or NaN for "X", "N/A" and "-".
std::optional<double> cell(const std::string& s) {
  if (s == "X" || s == "N/A" || s == "-" || s == "n/a") return NAN;
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v) && v >= 0) return v;
  } catch (const std::exception&) {}
  return std::nullopt;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// p2pBandwidthLatencyTest names each matrix on a line of its own.
Kind p2p_sample_heading(const std::string& line) {
  const bool enabled = contains(line, "P2P=Enabled"), disabled = contains(line, "P2P=Disabled");
  if (!enabled && !disabled) return Kind::none;
  if (contains(line, "Latency")) return enabled ? Kind::peer_latency : Kind::staged_latency;
  if (!contains(line, "Bandwidth")) return Kind::none;
  if (contains(line, "Bidirectional")) return enabled ? Kind::peer_bi : Kind::staged_bi;
  if (contains(line, "Unidirectional")) return enabled ? Kind::peer_uni : Kind::staged_uni;
  return Kind::none;
}

// nvbandwidth: "Running <test>." then a heading such as "memcpy CE GPU(row) <- GPU(column)
// bandwidth (GB/s)"; only the device-to-device tests are GPU x GPU.
Kind nvbandwidth_heading(const std::string& test, const std::string& line) {
  const bool gpu_by_gpu = contains(line, "GPU(row)") && contains(line, "GPU(column)");
  if (!gpu_by_gpu || !contains(test, "device_to_device")) return Kind::none;
  if (contains(test, "latency") || contains(line, "Latency")) return Kind::peer_latency;
  if (!contains(line, "bandwidth")) return Kind::none;
  return contains(test, "bidirectional") ? Kind::peer_bi : Kind::peer_uni;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::peer_uni: return "unidirectional peer-on bandwidth";
    case Kind::staged_uni: return "unidirectional peer-off bandwidth";
    case Kind::peer_bi: return "bidirectional peer-on bandwidth";
    case Kind::staged_bi: return "bidirectional peer-off bandwidth";
    case Kind::peer_latency: return "peer-on latency";
    case Kind::staged_latency: return "peer-off latency";
    default: return "?";
  }
}

struct Block {
  Matrix matrix;
  std::size_t line = 0;  // 1-based, of the heading
  std::string test;      // nvbandwidth's test name
};

// The table after line `start`: a header of column labels (after an optional corner such as
// "D\D" or "GPU"), then one row per label. Returns the matrix; `end` is the first line after it.
Matrix read_table(const std::vector<std::string>& lines, std::size_t start, const std::string& source,
                  std::size_t heading_line, std::size_t& end) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(source + ", line " + std::to_string(heading_line) + ": " + why);
  };
  std::size_t i = start;
  while (i < lines.size() && words(lines[i]).empty()) ++i;
  if (i == lines.size()) throw bad("a matrix heading with no table after it");
  std::vector<std::string> header = words(lines[i]);
  if (!whole_number(header.front())) header.erase(header.begin());  // "D\D", "GPU"
  if (header.empty() || !std::all_of(header.begin(), header.end(), whole_number))
    throw bad("the table's header is not a list of GPU numbers: '" + lines[i] + "'");
  Matrix m;
  m.columns = header;
  for (++i; i < lines.size(); ++i) {
    const std::vector<std::string> row = words(lines[i]);
    if (row.empty() || !whole_number(row.front())) break;
    if (row.size() != header.size() + 1)
      throw bad("row '" + lines[i] + "' has " + std::to_string(row.size() - 1) + " cells for " +
                std::to_string(header.size()) + " columns");
    std::vector<double> values;
    for (std::size_t c = 1; c < row.size(); ++c) {
      const auto v = cell(row[c]);
      if (!v) throw bad("'" + row[c] + "' in row '" + lines[i] + "' is not a number");
      values.push_back(static_cast<std::size_t>(c - 1) < header.size() && row.front() == header[c - 1] ? NAN : *v);
    }
    m.rows.push_back(row.front());
    m.values.push_back(values);
  }
  if (m.rows.size() != m.columns.size())
    throw bad("the table has " + std::to_string(m.rows.size()) + " rows for " + std::to_string(m.columns.size()) +
              " columns");
  end = i;
  return m;
}

Matrix scaled(Matrix m, double factor) {
  for (auto& row : m.values)
    for (double& v : row) v *= factor;
  return m;
}

void describe(Matrix& m, const std::string& title, const std::string& definition, const std::string& unit) {
  m.title = title;
  m.definition = definition;
  m.unit = unit;
  m.row_label = "GPU";
  m.column_label = "GPU";
  m.decimals = 2;
}

// The four matrices of LinkMatrices from the blocks found, with the unidirectional bandwidth made
// from a bidirectional one where only that was printed.
LinkMatrices assemble(std::vector<std::pair<Kind, Block>> blocks, const std::string& source, const std::string& format,
                      bool bidirectional_is_sum) {
  LinkMatrices links;
  links.source = source;
  links.format = format;
  const auto find = [&](Kind k) -> const Block* {
    for (const auto& [kind, block] : blocks)
      if (kind == k) return &block;
    return nullptr;
  };
  for (std::size_t a = 0; a < blocks.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (blocks[a].first == blocks[b].first)
        throw std::invalid_argument(source + ": two " + kind_name(blocks[a].first) + " matrices (lines " +
                                    std::to_string(blocks[b].second.line) + " and " +
                                    std::to_string(blocks[a].second.line) + "): give one machine's output per file");
  for (const auto& [kind, block] : blocks) {
    if (links.gpus.empty()) links.gpus = block.matrix.rows;
    if (block.matrix.rows != links.gpus)
      throw std::invalid_argument(source + ", line " + std::to_string(block.line) +
                                  ": this matrix's GPUs differ from the first matrix's");
  }
  const auto bandwidth = [&](Kind uni, Kind bi, Matrix& out, const std::string& which) {
    if (const Block* b = find(uni)) {
      out = b->matrix;
      links.notes.push_back(which + " bandwidth: the unidirectional matrix (line " + std::to_string(b->line) + ")");
    } else if (const Block* b = find(bi)) {
      out = bidirectional_is_sum ? scaled(b->matrix, 0.5) : b->matrix;
      links.notes.push_back(
          which + " bandwidth: " +
          (bidirectional_is_sum
               ? "half the bidirectional matrix (line " + std::to_string(b->line) + "), which sums both directions"
               : "the bidirectional matrix (line " + std::to_string(b->line) + "), one direction while both run"));
    }
  };
  bandwidth(Kind::peer_uni, Kind::peer_bi, links.peer_bandwidth, "peer-on");
  bandwidth(Kind::staged_uni, Kind::staged_bi, links.staged_bandwidth, "peer-off");
  if (const Block* b = find(Kind::peer_latency)) links.peer_latency = b->matrix;
  if (const Block* b = find(Kind::staged_latency)) links.staged_latency = b->matrix;
  if (links.peer_bandwidth.rows.empty() && links.staged_bandwidth.rows.empty())
    throw std::invalid_argument(source +
                                ": no GPU-to-GPU bandwidth matrix (expected the output of "
                                "p2pBandwidthLatencyTest or nvbandwidth, or yeex-p2p --json)");
  describe(links.peer_bandwidth, "peer-bandwidth", "copy bandwidth with peer access on, one direction", "GB/s");
  describe(links.staged_bandwidth, "staged-bandwidth", "copy bandwidth with peer access off, one direction", "GB/s");
  describe(links.peer_latency, "peer-latency", "time of a small copy with peer access on", "us");
  describe(links.staged_latency, "staged-latency", "time of a small copy with peer access off", "us");
  if (links.peer_latency.rows.empty()) links.notes.push_back("peer-on latency: not given (taken as 0)");
  return links;
}

}  // namespace

LinkMatrices parse_link_matrices_text(const std::string& text, const std::string& source) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
    }
  }
  const bool nvbandwidth = contains(text, "GPU(row)") && contains(text, "GPU(column)");
  std::vector<std::pair<Kind, Block>> blocks;
  std::string test;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (nvbandwidth && line.rfind("Running ", 0) == 0) {
      test = words(line).size() > 1 ? words(line)[1] : "";
      continue;
    }
    const Kind kind = nvbandwidth ? nvbandwidth_heading(test, line) : p2p_sample_heading(line);
    if (kind == Kind::none) continue;
    std::size_t end = i + 1;
    Block block{read_table(lines, i + 1, source, i + 1, end), i + 1, test};
    if (nvbandwidth && kind == Kind::peer_latency) block.matrix = scaled(block.matrix, 1e-3);  // ns -> us
    // nvbandwidth runs copy-engine and SM variants of a test: the copy engines are what
    // cudaMemcpyPeerAsync uses, so they replace an SM matrix of the same kind.
    const auto same = std::find_if(blocks.begin(), blocks.end(), [&](const auto& b) { return b.first == kind; });
    if (nvbandwidth && same != blocks.end()) {
      const bool ce = contains(test, "_ce"), earlier_ce = contains(same->second.test, "_ce");
      if (ce && !earlier_ce) same->second = block;
      i = end - 1;
      continue;
    }
    blocks.emplace_back(kind, block);
    i = end - 1;
  }
  if (blocks.empty())
    throw std::invalid_argument(source +
                                ": no GPU-to-GPU matrix found (expected the output of "
                                "p2pBandwidthLatencyTest or nvbandwidth, or yeex-p2p --json)");
  return assemble(blocks, source, nvbandwidth ? "nvbandwidth" : "p2pBandwidthLatencyTest", !nvbandwidth);
}

LinkMatrices parse_link_matrices_json(const nlohmann::json& document, const std::string& source) {
  if (!document.is_object() || !document.contains("results") || !document["results"].is_array())
    throw std::invalid_argument(source + ": no \"results\" (expected the JSON of `yeex-p2p --json FILE`)");
  std::vector<std::pair<Kind, Block>> blocks;
  for (const auto& result : document["results"])
    for (const auto& m : result.value("matrices", nlohmann::json::array())) {
      const std::string title = m.value("title", "");
      const Kind kind = title == "ce-unidir/peer-on"    ? Kind::peer_uni
                        : title == "ce-unidir/peer-off" ? Kind::staged_uni
                        : title == "ce-bidir"           ? Kind::peer_bi
                        : title == "latency"            ? Kind::peer_latency
                                                        : Kind::none;
      if (kind == Kind::none) continue;
      Block block;
      block.test = title;
      block.matrix.rows = m.at("rows").get<std::vector<std::string>>();
      block.matrix.columns = m.at("columns").get<std::vector<std::string>>();
      for (const auto& row : m.at("values")) {
        std::vector<double> values;
        for (const auto& v : row) values.push_back(v.is_number() ? v.get<double>() : NAN);
        block.matrix.values.push_back(values);
      }
      if (block.matrix.rows.size() != block.matrix.values.size() || block.matrix.rows != block.matrix.columns)
        throw std::invalid_argument(source + ": matrix " + title + " is not GPU x GPU");
      blocks.emplace_back(kind, block);
    }
  return assemble(blocks, source, "yeex-p2p", true);
}

LinkMatrices load_link_matrices(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::invalid_argument(path.string() + ": is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  const auto first = content.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && content[first] == '{') {
    nlohmann::json document;
    try {
      document = nlohmann::json::parse(content);
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(path.string() + " is not JSON: " + e.what());
    }
    try {
      return parse_link_matrices_json(document, path.string());
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(path.string() + " is not a yeex-p2p document: " + e.what());
    }
  }
  return parse_link_matrices_text(content, path.string());
}

double pair_value(const Matrix& m, std::size_t i, std::size_t j, bool larger_is_better) {
  if (i >= m.values.size() || j >= m.values.size() || j >= m.values[i].size() || i >= m.values[j].size()) return NAN;
  const double a = m.values[i][j], b = m.values[j][i];
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return larger_is_better ? std::min(a, b) : std::max(a, b);
}

nlohmann::json to_json(const LinkMatrices& l) {
  nlohmann::json j{{"source", l.source}, {"format", l.format}, {"gpus", l.gpus}, {"notes", l.notes}};
  const auto add = [&](const char* key, const Matrix& m) { j[key] = m.rows.empty() ? nlohmann::json() : to_json(m); };
  add("peer_bandwidth", l.peer_bandwidth);
  add("staged_bandwidth", l.staged_bandwidth);
  add("peer_latency", l.peer_latency);
  add("staged_latency", l.staged_latency);
  return j;
}

LinkMatrices link_matrices_from_json(const nlohmann::json& j) {
  LinkMatrices l;
  l.source = j.value("source", "");
  l.format = j.value("format", "");
  l.gpus = j.value("gpus", std::vector<std::string>());
  l.notes = j.value("notes", std::vector<std::string>());
  const auto read = [&](const char* key, Matrix& m) {
    if (!j.contains(key) || j[key].is_null()) return;
    const auto& x = j[key];
    m.title = x.value("title", "");
    m.definition = x.value("definition", "");
    m.unit = x.value("unit", "");
    m.rows = x.value("rows", std::vector<std::string>());
    m.columns = x.value("columns", std::vector<std::string>());
    for (const auto& row : x.value("values", nlohmann::json::array())) {
      std::vector<double> values;
      for (const auto& v : row) values.push_back(v.is_number() ? v.get<double>() : NAN);
      m.values.push_back(values);
    }
  };
  read("peer_bandwidth", l.peer_bandwidth);
  read("staged_bandwidth", l.staged_bandwidth);
  read("peer_latency", l.peer_latency);
  read("staged_latency", l.staged_latency);
  return l;
}

}  // namespace yeex
