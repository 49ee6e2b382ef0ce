#include "src/p2p/options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace yeex::p2p {

std::size_t parse_size(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("bad size '" + text + "': " + why +
                                 " (examples: 4096, 64K, 256M, 1G; 1K = 1024 bytes)");
  };
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (!text.empty() && text[0] == '-') throw bad("negative");
  if (i == 0) throw bad("not a number");
  std::string suffix = text.substr(i);
  for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.size() > 1 && (suffix.substr(1) == "B" || suffix.substr(1) == "IB")) suffix = suffix.substr(0, 1);
  int shift = 0;
  if (suffix == "K")
    shift = 10;
  else if (suffix == "M")
    shift = 20;
  else if (suffix == "G")
    shift = 30;
  else if (!suffix.empty() && suffix != "B")
    throw bad("unknown suffix");
  constexpr auto max = std::numeric_limits<std::size_t>::max();
  std::size_t value = 0;
  for (std::size_t k = 0; k < i; ++k) {
    const std::size_t digit = static_cast<std::size_t>(text[k] - '0');
    if (value > (max - digit) / 10) throw bad("too large");
    value = value * 10 + digit;
  }
  if (value == 0) throw bad("zero");
  if (value > (max >> shift)) throw bad("too large");
  return value << shift;
}

std::pair<std::size_t, std::size_t> parse_sweep(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("bad sweep '" + text + "': expected MIN:MAX, e.g. 4:256M");
  const std::size_t min = parse_size(text.substr(0, colon)), max = parse_size(text.substr(colon + 1));
  if (min > max) throw std::invalid_argument("bad sweep '" + text + "': MIN is larger than MAX");
  return {min, max};
}

std::vector<std::size_t> sweep_sizes(std::size_t min, std::size_t max) {
  std::vector<std::size_t> sizes;
  for (std::size_t s = min; s <= max; s *= 2) {
    sizes.push_back(s);
    if (s > max / 2) break;
  }
  return sizes;
}

std::string format_size(std::size_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int u = 0;
  while (value >= 1024 && u < 4) value /= 1024, ++u;
  char buffer[32];
  if (value == static_cast<double>(static_cast<long long>(value)))
    std::snprintf(buffer, sizeof buffer, "%lld %s", static_cast<long long>(value), units[u]);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[u]);
  return buffer;
}

void check_devices(const std::vector<int>& devices, int visible) {
  for (auto it = devices.begin(); it != devices.end(); ++it)
    if (std::find(devices.begin(), it, *it) != it)
      throw std::invalid_argument("--devices: GPU " + std::to_string(*it) + " is listed twice");
  for (int d : devices)
    if (d < 0 || d >= visible)
      throw std::invalid_argument("--devices: GPU " + std::to_string(d) + " does not exist (" +
                                  std::to_string(visible) + " CUDA device(s) visible)");
}

void check_test_names(const std::vector<std::string>& names, const std::vector<std::string>& valid) {
  for (const auto& name : names)
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      std::string list;
      for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
      throw std::invalid_argument("--test: unknown test '" + name + "' (valid: " + list + ")");
    }
}

}  // namespace yeex::p2p
