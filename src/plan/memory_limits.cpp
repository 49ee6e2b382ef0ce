#include "src/plan/memory_limits.hpp"

#include <sys/resource.h>

#include <charconv>
#include <fstream>
#include <iterator>
#include <sstream>

namespace yeex {
namespace {

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return text;
}

std::optional<std::size_t> number(std::string_view text) {
  text = trimmed(text);
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// Each "ID:CONTROLLERS:PATH" line of /proc/self/cgroup, given to `take` until it answers.
template <typename Take>
std::optional<std::string> find_entry(std::string_view text, Take take) {
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    if (take(id, controllers)) return line.substr(second + 1);
  }
  return std::nullopt;
}

// The smallest of the limit files named `file` from `dir` up to `root`.
std::optional<std::pair<std::size_t, std::string>> smallest_on_path(
    const std::filesystem::path& root, const std::string& path, const std::string& file,
    std::optional<std::size_t> (*parse)(std::string_view)) {
  std::optional<std::pair<std::size_t, std::string>> best;
  std::filesystem::path relative = std::filesystem::path(path).relative_path();
  for (;;) {
    const std::filesystem::path limit = (root / relative / file).lexically_normal();
    std::error_code ec;
    if (std::filesystem::is_regular_file(limit, ec))
      if (const auto value = parse(read_text(limit)); value && (!best || *value < best->first))
        best = std::make_pair(*value, limit.string());
    if (relative.empty()) break;
    relative = relative.parent_path();
  }
  return best;
}

}  // namespace

std::optional<std::string> cgroup_v2_path(std::string_view text) {
  return find_entry(
      text, [](const std::string& id, const std::string& controllers) { return id == "0" && controllers.empty(); });
}

std::optional<std::string> cgroup_v1_memory_path(std::string_view text) {
  return find_entry(text, [](const std::string&, const std::string& controllers) {
    std::istringstream names(controllers);
    for (std::string name; std::getline(names, name, ',');)
      if (name == "memory") return true;
    return false;
  });
}

std::optional<std::size_t> parse_cgroup_memory_max(std::string_view text) {
  if (trimmed(text) == "max") return std::nullopt;
  return number(text);
}

std::optional<std::size_t> parse_cgroup_v1_limit(std::string_view text) {
  const auto value = number(text);
  // No limit reads as LONG_MAX rounded down to a page (9223372036854771712 with 4 KiB pages).
  if (value && *value >= (std::size_t(1) << 62)) return std::nullopt;
  return value;
}

std::optional<std::size_t> parse_mem_available(std::string_view meminfo) {
  std::istringstream in{std::string(meminfo)};
  std::string key;
  std::size_t kib = 0;
  while (in >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    in.ignore(256, '\n');
  }
  return std::nullopt;
}

std::optional<std::pair<std::size_t, std::string>> cgroup_memory_limit(std::string_view proc_self_cgroup,
                                                                       const std::filesystem::path& root) {
  if (const auto v2 = cgroup_v2_path(proc_self_cgroup))
    if (auto limit = smallest_on_path(root, *v2, "memory.max", parse_cgroup_memory_max)) return limit;
  if (const auto v1 = cgroup_v1_memory_path(proc_self_cgroup))
    return smallest_on_path(root / "memory", *v1, "memory.limit_in_bytes", parse_cgroup_v1_limit);
  return std::nullopt;
}

MemoryLimits read_memory_limits() {
  MemoryLimits limits;
  limits.available = parse_mem_available(read_text("/proc/meminfo"));
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    limits.address_space = static_cast<std::size_t>(as.rlim_cur);
  if (const auto cgroup = cgroup_memory_limit(read_text("/proc/self/cgroup"), "/sys/fs/cgroup")) {
    limits.cgroup = cgroup->first;
    limits.cgroup_file = cgroup->second;
  }
  return limits;
}

}  // namespace yeex
