#include "src/runtime/process_group.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace yeex {
namespace {

std::span<const std::byte> bytes_of(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}
std::string string_of(const std::vector<std::byte>& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

}  // namespace

std::vector<std::vector<std::byte>> SingleProcessGroup::gather(std::span<const std::byte> mine, int) const {
  return {std::vector<std::byte>(mine.begin(), mine.end())};
}
// A process alone has nobody to talk to: a call is a bug in the caller.
void SingleProcessGroup::send(std::span<const std::byte>, int to, int) const {
  throw std::logic_error("send to rank " + std::to_string(to) + " in a group of one process");
}
void SingleProcessGroup::receive(std::span<std::byte>, int from, int) const {
  throw std::logic_error("receive from rank " + std::to_string(from) + " in a group of one process");
}
std::unique_ptr<ProcessGroup> SingleProcessGroup::first(int n) const {
  return n >= 1 ? std::make_unique<SingleProcessGroup>() : nullptr;
}
void SingleProcessGroup::abort(int exit_code) const { std::_Exit(exit_code); }

std::string broadcast_string(const ProcessGroup& group, std::string text, int root) {
  std::vector<std::byte> data(text.size());
  if (!text.empty()) std::memcpy(data.data(), text.data(), text.size());  // an empty vector's data() may be null
  group.broadcast(data, root);
  return string_of(data);
}

std::uint64_t broadcast_u64(const ProcessGroup& group, std::uint64_t value, int root) {
  std::vector<std::byte> data(sizeof value);
  std::memcpy(data.data(), &value, sizeof value);
  group.broadcast(data, root);
  std::memcpy(&value, data.data(), sizeof value);
  return value;
}

std::vector<std::string> gather_strings(const ProcessGroup& group, const std::string& mine, int root) {
  std::vector<std::string> all;
  for (const auto& b : group.gather(bytes_of(mine), root)) all.push_back(string_of(b));
  return all;
}

void send_u64(const ProcessGroup& group, std::uint64_t value, int to, int tag) {
  group.send(std::as_bytes(std::span<const std::uint64_t>(&value, 1)), to, tag);
}

std::uint64_t receive_u64(const ProcessGroup& group, int from, int tag) {
  std::uint64_t value = 0;
  group.receive(std::as_writable_bytes(std::span<std::uint64_t>(&value, 1)), from, tag);
  return value;
}

// Encoded as "CODE MESSAGE" (empty: no problem); rank 0 picks the first and tells everyone.
std::optional<GroupProblem> first_problem(const ProcessGroup& group, const std::optional<GroupProblem>& mine) {
  const std::string encoded = mine ? std::to_string(mine->exit_code) + " " + mine->message : std::string();
  std::string chosen;
  if (group.rank() == 0) {
    const std::vector<std::string> all = gather_strings(group, encoded, 0);
    for (std::size_t r = 0; r < all.size() && chosen.empty(); ++r)
      if (!all[r].empty()) chosen = std::to_string(r) + " " + all[r];
  } else {
    gather_strings(group, encoded, 0);
  }
  chosen = broadcast_string(group, chosen, 0);
  if (chosen.empty()) return std::nullopt;
  GroupProblem p;
  const std::size_t a = chosen.find(' '), b = chosen.find(' ', a + 1);
  p.rank = std::stoi(chosen.substr(0, a));
  p.exit_code = std::stoi(chosen.substr(a + 1, b - a - 1));
  p.message = chosen.substr(b + 1);
  return p;
}

}  // namespace yeex
