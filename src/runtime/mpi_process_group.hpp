// MPI mode's process group: the ranks of an MPI communicator (src/runtime/process_group.hpp).
// Only the mpi exchange backend and this file's implementation see mpi.h.
#pragma once

#include <mpi.h>

#include "src/runtime/process_group.hpp"

namespace yeex {

class MpiProcessGroup final : public ProcessGroup {
 public:
  // Takes ownership of `comm` (freed on destruction) unless it is MPI_COMM_WORLD.
  explicit MpiProcessGroup(MPI_Comm comm);
  ~MpiProcessGroup() override;
  MpiProcessGroup(const MpiProcessGroup&) = delete;
  MpiProcessGroup& operator=(const MpiProcessGroup&) = delete;

  MPI_Comm communicator() const { return comm_; }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  NodePlacement placement() const override { return placement_; }
  void barrier() const override;
  void broadcast(std::vector<std::byte>& data, int root) const override;
  std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine, int root) const override;
  void send(std::span<const std::byte> data, int to, int tag) const override;
  void receive(std::span<std::byte> data, int from, int tag) const override;
  double max(double value) const override;
  std::unique_ptr<ProcessGroup> first(int n) const override;
  [[noreturn]] void abort(int exit_code) const override;

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  NodePlacement placement_;
};

// Throws std::runtime_error naming `call` unless `code` is MPI_SUCCESS.
void mpi_check(int code, const char* call);

}  // namespace yeex
