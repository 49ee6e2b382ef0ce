// How this process was started: alone (threads mode) or by an MPI launcher (MPI mode). Read from
// the environment the launchers set, without any MPI call, so that a build without MPI can still
// tell that it was started by mpirun and refuse clearly.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "src/runtime/process_group.hpp"

namespace yeex {

struct MpiLaunch {
  bool launched = false;  // an MPI launcher started this process
  int size = 1;           // processes it started (when the launcher says)
  int rank = 0;
  std::string variable;  // the variable that told, e.g. OMPI_COMM_WORLD_SIZE
};

// Open MPI (OMPI_COMM_WORLD_*), PMIx (PMIX_RANK: Open MPI 5, srun --mpi=pmix), PMI (PMI_SIZE,
// PMI_RANK: MPICH/Hydra, Intel MPI, srun --mpi=pmi2), MVAPICH (MV2_COMM_WORLD_*). A Slurm
// allocation alone (SLURM_*) is not a launch: a batch script may run yeex without srun.
MpiLaunch detect_mpi_launch();
// The same, reading variables through `get` (for tests).
MpiLaunch detect_mpi_launch(const std::function<const char*(const char*)>& get);

// Whether this build has MPI mode.
bool mpi_built();

// MPI_Get_library_version, first line ("none" without MPI).
std::string mpi_library_version();
// Whether the MPI library says it sends and receives device buffers (MPIX_Query_cuda_support);
// YEEX_MPI_CUDA_AWARE=0 in the environment says no regardless. False without MPI.
bool mpi_cuda_aware();

// MPI from MPI_Init_thread to MPI_Finalize, owned by main (MPI mode only). MPI calls may come
// from several threads, one at a time (MPI_THREAD_SERIALIZED). Throws std::runtime_error in a
// build without MPI or when the library cannot give that thread level.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // MPI_COMM_WORLD as a process group.
  const ProcessGroup& world() const;

 private:
  std::unique_ptr<ProcessGroup> world_;
};

}  // namespace yeex
