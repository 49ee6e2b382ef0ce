#include "src/bench/bench_markdown.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

namespace yeex {
namespace {

std::string grid_text(const nlohmann::json& grid) {
  return std::to_string(grid[0].get<long long>()) + " x " + std::to_string(grid[1].get<long long>()) + " x " +
         std::to_string(grid[2].get<long long>());
}

// The row's backend as the tables name it: "-" is the engine alone (T1), b2r with its depth.
std::string backend(const nlohmann::json& row) {
  const std::string name = row["exchange"];
  if (name == "-") return "engine alone (T1)";
  const long long depth = row["halo_depth"];
  return depth > 1 ? name + " R=" + std::to_string(depth) : name;
}

std::string cell(const nlohmann::json& row) {
  if (!row["skipped"].get<std::string>().empty()) return "skipped";
  return printf_number("%.1f %%", 100 * row["efficiency"].get<double>()) + " (" +
         printf_number("%.3f", 1e3 * row["seconds_per_step_median"].get<double>()) + " ms)" +
         (row.value("bits", "") == "DIFFERS" ? " **fields differ**" : "");
}

// A group: one scaling of one size, its rows by backend in the order met, then by device count.
struct Group {
  std::string title;
  std::vector<std::string> backends;
  std::set<int> counts;
  std::map<std::pair<std::string, int>, std::string> cells;
  std::string skipped;  // why rows were skipped, once per reason
};

}  // namespace

std::string printf_number(const char* spec, double value) {
  char b[64];
  std::snprintf(b, sizeof b, spec, value);
  return b;
}

std::string bench_markdown(const nlohmann::json& bench) {
  std::vector<std::pair<std::string, Group>> groups;  // in the order met
  const auto group_of = [&](const std::string& key) -> Group& {
    for (auto& [k, g] : groups)
      if (k == key) return g;
    return groups.emplace_back(key, Group{}).second;
  };
  for (const auto& row : bench["rows"]) {
    const std::string scaling = row["scaling"];
    const long long size = row["size"];
    const int count = row["devices"];
    const std::string size_text = size > 0 ? std::to_string(size) + "³" : "the deck's grid";
    Group& g = group_of(scaling + "/" + std::to_string(size));
    if (g.title.empty())
      g.title = scaling == "strong" ? "Strong scaling, " + size_text + " in all (" + grid_text(row["grid"]) + ")"
                                    : "Weak scaling, " + size_text + " per device (stacked along z)";
    const std::string name = backend(row);
    if (std::find(g.backends.begin(), g.backends.end(), name) == g.backends.end()) g.backends.push_back(name);
    g.counts.insert(count);
    g.cells[{name, count}] = cell(row);
    const std::string why = row["skipped"];
    if (!why.empty() && g.skipped.find(why) == std::string::npos)
      g.skipped += "\n- " + name + " on " + std::to_string(count) + ": " + why;
  }
  std::ostringstream md;
  const auto& p = bench["provenance"];
  md << "# yeex bench: " << bench["engine"].get<std::string>() << " engine, " << bench["precision"].get<std::string>()
     << "\n\n";
  md << "`" << bench["command"].get<std::string>() << "`\n\n";
  md << "- date " << p["date_utc"].get<std::string>() << ", host " << p["host"].get<std::string>() << ", yeex "
     << p["yeex_version"].get<std::string>() << " (" << p["git_commit"].get<std::string>() << ")\n";
  if (!p["gpus"].empty()) {
    md << "- GPUs:";
    for (const auto& gpu : p["gpus"])
      md << " " << gpu["index"].get<int>() << " " << gpu["name"].get<std::string>() << ";";
    md << " devices used, in order: " << bench["devices"].dump() << (bench["peer_access"] ? "" : " (--no-peer)")
       << "\n";
  }
  md << "- one device's copy bandwidth " << printf_number("%.0f", bench["copy_bandwidth_gb_per_s"].get<double>())
     << " GB/s (read + write); median of " << bench["repeats"].get<int>() << " x "
     << bench["steps_per_repeat"].get<long long>() << " steps after " << bench["warmup_steps"].get<long long>()
     << " warm-up steps\n";
  md << "- each cell: efficiency (time per step); strong T1 / (N TN), weak T1 / TN, T1 = the engine alone on one "
        "device in the same run\n";
  for (const auto& [key, g] : groups) {
    md << "\n## " << g.title << "\n\n| backend |";
    for (int n : g.counts) md << " " << n << (n == 1 ? " device |" : " devices |");
    md << "\n|---|";
    for (std::size_t c = 0; c < g.counts.size(); ++c) md << "---:|";
    md << "\n";
    for (const auto& name : g.backends) {
      md << "| " << name << " |";
      for (int n : g.counts) {
        const auto it = g.cells.find({name, n});
        md << " " << (it == g.cells.end() ? "" : it->second) << " |";
      }
      md << "\n";
    }
    if (key.rfind("weak", 0) == 0 && !g.counts.count(1))
      md << "\nT1: the engine alone on one device, the strong table's first row.\n";
    if (!g.skipped.empty()) md << "\nSkipped:" << g.skipped << "\n";
  }
  return md.str();
}

}  // namespace yeex
