// The CLI's side of MPI mode: ranks that agree before a run starts, the GPU of each rank, and
// what run.json records about the ranks.
//
// Failures before the time loop (bad deck, bad option, a GPU a rank cannot use) are *agreed*:
// each rank runs the same preparation stage, the lowest rank with a problem wins, rank 0 prints
// it and every rank exits with its code (2 for bad input), after MPI_Finalize, no MPI_Abort.
// Failures after that (a device error, out of memory, NaN) are one rank's: it prints its
// message with its rank and calls MPI_Abort (src/app/main.cpp), so the job never hangs.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/deck.hpp"
#include "src/app/commands.hpp"
#include "src/runtime/process_group.hpp"

namespace yeex {

// Every rank leaves with `code`; rank 0 has already printed why.
class AgreedExit : public std::runtime_error {
 public:
  explicit AgreedExit(int code) : std::runtime_error("agreed exit"), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// FNV-1a 64 over the arguments, each followed by a 0 byte (so {"a b"} and {"a", "b"} differ).
std::uint64_t command_line_hash(const std::vector<std::string>& arguments);

// "rank R on HOST": how messages name a rank.
std::string rank_name(int rank);

// The exit code and message main would give for the exception being handled (DeckError: 2,
// "error in deck: ...", UsageError: 2, anything else: 1, "run failed: ...").
GroupProblem describe_current_exception(int rank);

// Prints (rank 0) the agreed problem and throws AgreedExit, or returns when there is none.
void exit_on_problem(const ProcessGroup& group, const std::optional<GroupProblem>& mine);

// Runs `stage` on every rank (threads mode, `world` null: just runs it, exceptions pass). MPI
// mode: an exception is caught and agreed on, see the header comment. The stage must make no
// collective call after anything that can throw (the ranks would not meet).
template <typename Stage>
auto agreed(const ProcessGroup* world, Stage stage) -> decltype(stage()) {
  if (!world) return stage();
  std::optional<GroupProblem> mine;
  try {
    if constexpr (std::is_void_v<decltype(stage())>) {
      stage();
      exit_on_problem(*world, mine);
      return;
    } else {
      auto value = stage();
      exit_on_problem(*world, mine);
      return value;
    }
  } catch (const AgreedExit&) {
    throw;
  } catch (...) {
    mine = describe_current_exception(world->rank());
  }
  exit_on_problem(*world, mine);
  throw std::logic_error("agreed: a problem was not agreed on");  // exit_on_problem threw
}

// Refuses ranks started with other arguments than rank 0 (AgreedExit 2).
void check_same_arguments(const ProcessGroup& world, const std::vector<std::string>& arguments);

// MPI mode: this rank's GPU. `--devices` maps the ranks of a node to GPUs (local rank i takes the
// i-th); without it local rank i takes visible GPU i modulo the count. Throws UsageError.
int choose_rank_gpu(const ProcessGroup& world, const SplitOptions& split);
// Collective: refuses (AgreedExit 2) two ranks of one node on the same GPU (by PCI bus id, so
// per-rank CUDA_VISIBLE_DEVICES is understood) unless `allow_sharing`.
void check_gpu_sharing(const ProcessGroup& world, int device, bool allow_sharing);
// What check_gpu_sharing compares, one entry per rank: "NODE|GPU|HOST"; shared_gpu says which
// two ranks of a node hold the same GPU (nullopt: none).
std::string gpu_placement_entry(int node, const std::string& gpu, const std::string& host);
std::optional<std::string> shared_gpu(const std::vector<std::string>& entries);

// MPI mode, OMP_NUM_THREADS unset and this rank not bound to a subset of the cores (mpirun
// --bind-to none): gives each of the node's ranks its share of the cores for OpenMP, instead of
// every rank starting one thread per core. Returns the thread count now in force.
int share_cores_among_node_ranks(const ProcessGroup& world);

// Collective: every rank's host, node rank and GPU (index, name, PCI bus id; null on the host
// engine), in rank order, on rank 0 (null elsewhere).
nlohmann::json rank_table(const ProcessGroup& world, int device);

}  // namespace yeex
