// ProcessGroup: the processes that hold the subdomains of one run, and the few collective
// operations the solver needs across them. Threads mode has no group at all (one process holds
// every subdomain); MPI mode gives the solver the ranks of an MPI communicator, rank r holding
// subdomain r (src/runtime/mpi_process_group.hpp). The solver and the exchange backends only see
// this interface, so nothing above src/runtime includes mpi.h except the mpi backend.
//
// Contract: every member calls a collective (everything but rank, size, send, receive, abort)
// in the same order; calls from different threads of one process never overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace yeex {

// Where a rank runs: its node (the lowest rank on it, so equal for ranks sharing memory) and its
// place among the ranks of that node.
struct NodePlacement {
  int node = 0;        // lowest rank of the node
  int local_rank = 0;  // 0 .. local_size - 1
  int local_size = 1;
};

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual NodePlacement placement() const = 0;
  virtual void barrier() const = 0;
  // Root's bytes to every member (the others' `data` is resized to fit).
  virtual void broadcast(std::vector<std::byte>& data, int root) const = 0;
  // Every member's bytes, in rank order, on `root` (an empty list on the others). Any size.
  virtual std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine, int root) const = 0;
  // Blocking point-to-point messages of a known size (tag >= 0).
  virtual void send(std::span<const std::byte> data, int to, int tag) const = 0;
  virtual void receive(std::span<std::byte> data, int from, int tag) const = 0;
  // The largest `value` of all members, on every member.
  virtual double max(double value) const = 0;
  // A group of ranks 0 .. n-1 alone (collective over this group); null on the ranks not in it.
  virtual std::unique_ptr<ProcessGroup> first(int n) const = 0;
  // Ends every process of the job at once with `exit_code` (MPI_Abort): for failures after
  // which the members can no longer agree (one rank's device failed in the middle of a step).
  [[noreturn]] virtual void abort(int exit_code) const = 0;
};

// Threads mode's group: this process alone.
class SingleProcessGroup final : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  NodePlacement placement() const override { return {}; }
  void barrier() const override {}
  void broadcast(std::vector<std::byte>&, int) const override {}
  std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine, int root) const override;
  void send(std::span<const std::byte>, int to, int) const override;
  void receive(std::span<std::byte>, int from, int) const override;
  double max(double value) const override { return value; }
  std::unique_ptr<ProcessGroup> first(int n) const override;
  [[noreturn]] void abort(int exit_code) const override;
};

// Typed helpers over the byte interface.
std::string broadcast_string(const ProcessGroup& group, std::string text, int root = 0);
std::uint64_t broadcast_u64(const ProcessGroup& group, std::uint64_t value, int root = 0);
// Strings of every member on `root` (empty list elsewhere).
std::vector<std::string> gather_strings(const ProcessGroup& group, const std::string& mine, int root = 0);
void send_u64(const ProcessGroup& group, std::uint64_t value, int to, int tag);
std::uint64_t receive_u64(const ProcessGroup& group, int from, int tag);

// A problem one member found before a run (bad input, a GPU it cannot use), agreed on by all.
struct GroupProblem {
  int rank = 0;
  int exit_code = 2;
  std::string message;
};
// Collective: the problem of the lowest rank that has one (`mine` when this member has one and
// no lower rank does), the same on every member; nullopt when nobody has one.
std::optional<GroupProblem> first_problem(const ProcessGroup& group, const std::optional<GroupProblem>& mine);

}  // namespace yeex
