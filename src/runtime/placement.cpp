#include "src/runtime/placement.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <limits>
#include <mutex>
#include <numeric>
#include <stdexcept>

namespace yeex {

double link_score(const std::string& link) {
  if (link.size() > 2 && link.compare(0, 2, "NV") == 0) {
    const std::string count = link.substr(2);
    if (std::all_of(count.begin(), count.end(), [](char c) { return c >= '0' && c <= '9'; }) && count.size() < 4)
      return 1000.0 + 10.0 * std::stoi(count);
  }
  if (link == "PIX") return 400;
  if (link == "PXB") return 300;
  if (link == "PHB") return 200;
  if (link == "NODE") return 150;
  if (link == "SYS") return 100;
  return 0;
}

std::vector<std::vector<double>> link_scores(const Topology& t) {
  const std::size_t n = t.gpus.size();
  std::vector<std::vector<double>> s(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n && i < t.pairs.size(); ++i)
    for (std::size_t j = 0; j < n && j < t.pairs[i].size(); ++j)
      if (i != j) s[i][j] = link_score(t.pairs[i][j].link);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) s[i][j] = s[j][i] = std::min(s[i][j], s[j][i]);
  return s;
}

double slowest_link(const std::vector<std::vector<double>>& scores, const std::vector<int>& chain) {
  double slowest = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k < chain.size(); ++k) slowest = std::min(slowest, scores[chain[k - 1]][chain[k]]);
  return slowest;
}

namespace {

double total_links(const std::vector<std::vector<double>>& scores, const std::vector<int>& chain) {
  double sum = 0;
  for (std::size_t k = 1; k < chain.size(); ++k) sum += scores[chain[k - 1]][chain[k]];
  return sum;
}

// Strictly better: a faster slowest link, else a larger sum (ties keep the earlier chain).
bool better(const std::vector<std::vector<double>>& scores, const std::vector<int>& a, const std::vector<int>& b) {
  const double slowest_a = slowest_link(scores, a), slowest_b = slowest_link(scores, b);
  if (slowest_a != slowest_b) return slowest_a > slowest_b;
  return total_links(scores, a) > total_links(scores, b);
}

}  // namespace

std::vector<int> best_chain(const std::vector<std::vector<double>>& scores) {
  const int n = static_cast<int>(scores.size());
  for (const auto& row : scores)
    if (static_cast<int>(row.size()) != n) throw std::invalid_argument("best_chain: the score matrix is not square");
  std::vector<int> chain(n);
  std::iota(chain.begin(), chain.end(), 0);
  if (n < 3) return chain;
  std::vector<int> best = chain;
  if (n <= kExhaustiveChainGpus) {
    // Lexicographic order: among equal chains the first (the identity where all are equal) stays.
    while (std::next_permutation(chain.begin(), chain.end()))
      if (better(scores, chain, best)) best = chain;
    return best;
  }
  bool first = true;
  for (int start = 0; start < n; ++start) {
    std::vector<int> greedy{start};
    std::vector<bool> used(n, false);
    used[start] = true;
    while (static_cast<int>(greedy.size()) < n) {
      int next = -1;
      for (int j = 0; j < n; ++j)
        if (!used[j] && (next < 0 || scores[greedy.back()][j] > scores[greedy.back()][next])) next = j;
      used[next] = true;
      greedy.push_back(next);
    }
    if (first || better(scores, greedy, best)) best = greedy;
    first = false;
  }
  // The identity when it is as good (keeps the given order on uniform machines).
  std::iota(chain.begin(), chain.end(), 0);
  return better(scores, best, chain) ? best : chain;
}

std::vector<int> order_devices(const Topology& t) {
  std::vector<int> devices;
  for (const auto& g : t.gpus) devices.push_back(g.device);
  if (devices.size() < 3) return devices;
  const auto scores = link_scores(t);
  std::vector<int> ordered;
  for (int i : best_chain(scores)) ordered.push_back(devices[i]);
  return ordered;
}

std::vector<std::string> boundary_links(const Topology& t, const std::vector<int>& devices) {
  const auto index = [&](int device) {
    for (std::size_t i = 0; i < t.gpus.size(); ++i)
      if (t.gpus[i].device == device) return static_cast<int>(i);
    return -1;
  };
  std::vector<std::string> links;
  for (std::size_t s = 1; s < devices.size(); ++s) {
    if (devices[s] == devices[s - 1]) {
      links.emplace_back("same GPU");
      continue;
    }
    const int a = index(devices[s - 1]), b = index(devices[s]);
    const bool known =
        a >= 0 && b >= 0 && a < static_cast<int>(t.pairs.size()) && b < static_cast<int>(t.pairs[a].size());
    links.push_back(known ? t.pairs[a][b].link : "?");
  }
  return links;
}

std::vector<std::vector<int>> local_cpus(const Topology& t, const std::vector<int>& devices) {
  std::vector<std::vector<int>> cpus;
  for (int d : devices) {
    std::vector<int> local;
    for (const auto& g : t.gpus)
      if (g.device == d && !g.cpu_affinity.empty()) {
        try {
          local = parse_cpulist(g.cpu_affinity);
        } catch (const std::invalid_argument&) {}
      }
    cpus.push_back(local);
  }
  return cpus;
}

namespace {
std::mutex pinning_mutex;
std::vector<std::vector<int>> pinning_plan;
}  // namespace

void set_thread_pinning(std::vector<std::vector<int>> cpus) {
  std::lock_guard lock(pinning_mutex);
  pinning_plan = std::move(cpus);
}

std::vector<std::vector<int>> thread_pinning() {
  std::lock_guard lock(pinning_mutex);
  return pinning_plan;
}

bool pin_current_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  bool any = false;
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE) {
      CPU_SET(c, &set);
      any = true;
    }
  return any && pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

std::vector<int> current_thread_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

}  // namespace yeex
