#include "src/runtime/mpi_process_group.hpp"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_Query_cuda_support (Open MPI, MVAPICH)
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "src/runtime/environment.hpp"
#include "src/runtime/mpi_launch.hpp"

namespace yeex {
namespace {

// MPI counts are int: larger buffers go in pieces of at most this many bytes (in order, so the
// pieces of one message cannot be confused with the next).
constexpr std::size_t kPiece = std::size_t(1) << 30;

int piece_count(std::size_t bytes, std::size_t offset) { return static_cast<int>(std::min(kPiece, bytes - offset)); }

}  // namespace

void mpi_check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI error in ") + call + ": " + std::string(text, length));
}

MpiProcessGroup::MpiProcessGroup(MPI_Comm comm) : comm_(comm) {
  mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  // The ranks that share memory with this one form its node.
  MPI_Comm node;
  mpi_check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  mpi_check(MPI_Comm_rank(node, &placement_.local_rank), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(node, &placement_.local_size), "MPI_Comm_size");
  mpi_check(MPI_Allreduce(&rank_, &placement_.node, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce");
  MPI_Comm_free(&node);
}

MpiProcessGroup::~MpiProcessGroup() {
  if (comm_ != MPI_COMM_WORLD) MPI_Comm_free(&comm_);
}

void MpiProcessGroup::barrier() const { mpi_check(MPI_Barrier(comm_), "MPI_Barrier"); }

void MpiProcessGroup::broadcast(std::vector<std::byte>& data, int root) const {
  std::uint64_t bytes = data.size();
  mpi_check(MPI_Bcast(&bytes, 1, MPI_UINT64_T, root, comm_), "MPI_Bcast");
  data.resize(bytes);
  for (std::size_t at = 0; at < bytes; at += kPiece)
    mpi_check(MPI_Bcast(data.data() + at, piece_count(bytes, at), MPI_BYTE, root, comm_), "MPI_Bcast");
}

std::vector<std::vector<std::byte>> MpiProcessGroup::gather(std::span<const std::byte> mine, int root) const {
  const std::uint64_t bytes = mine.size();
  std::vector<std::uint64_t> sizes(rank_ == root ? size_ : 0);
  mpi_check(MPI_Gather(&bytes, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, root, comm_), "MPI_Gather");
  constexpr int kTag = 32000;
  std::vector<std::vector<std::byte>> all;
  if (rank_ != root) {
    send(mine, root, kTag);
    return all;
  }
  all.resize(size_);
  for (int r = 0; r < size_; ++r) {
    all[r].resize(sizes[r]);
    if (r == root)
      std::memcpy(all[r].data(), mine.data(), mine.size());
    else
      receive(all[r], r, kTag);
  }
  return all;
}

void MpiProcessGroup::send(std::span<const std::byte> data, int to, int tag) const {
  std::size_t at = 0;
  do {
    mpi_check(MPI_Send(data.data() + at, piece_count(data.size(), at), MPI_BYTE, to, tag, comm_), "MPI_Send");
    at += kPiece;
  } while (at < data.size());
}

void MpiProcessGroup::receive(std::span<std::byte> data, int from, int tag) const {
  std::size_t at = 0;
  do {
    mpi_check(MPI_Recv(data.data() + at, piece_count(data.size(), at), MPI_BYTE, from, tag, comm_, MPI_STATUS_IGNORE),
              "MPI_Recv");
    at += kPiece;
  } while (at < data.size());
}

double MpiProcessGroup::max(double value) const {
  double result = value;
  mpi_check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
  return result;
}

std::unique_ptr<ProcessGroup> MpiProcessGroup::first(int n) const {
  MPI_Comm sub;
  mpi_check(MPI_Comm_split(comm_, rank_ < n ? 0 : MPI_UNDEFINED, rank_, &sub), "MPI_Comm_split");
  if (sub == MPI_COMM_NULL) return nullptr;
  return std::make_unique<MpiProcessGroup>(sub);
}

void MpiProcessGroup::abort(int exit_code) const {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; should a library return, still never continue
}

// ---- MpiSession ----

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = MPI_THREAD_SINGLE;
  mpi_check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error(
        "the MPI library does not support MPI_THREAD_SERIALIZED (yeex calls MPI from its worker thread)");
  }
  world_ = std::make_unique<MpiProcessGroup>(MPI_COMM_WORLD);
}

MpiSession::~MpiSession() {
  world_.reset();
  MPI_Finalize();
}

const ProcessGroup& MpiSession::world() const { return *world_; }

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, length);
  return s.substr(0, s.find_first_of(",\n"));
}

// YEEX_MPI_CUDA_AWARE=0 turns the device-buffer path off (src/runtime/environment.hpp): an MPI
// library may report CUDA-awareness that the machine's fabric or driver cannot honour.
bool mpi_cuda_aware() {
  if (yeex_switch("YEEX_MPI_CUDA_AWARE") == false) return false;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

}  // namespace yeex
