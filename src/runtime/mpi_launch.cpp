#include "src/runtime/mpi_launch.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace yeex {
namespace {

// A non-negative integer, or -1 when the text is not one.
int count_of(const char* text) {
  if (!text || !*text) return -1;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  return (*end == '\0' && v >= 0 && v < (1L << 30)) ? static_cast<int>(v) : -1;
}

}  // namespace

MpiLaunch detect_mpi_launch(const std::function<const char*(const char*)>& get) {
  struct Launcher {
    const char* size;  // null: the launcher does not export the size
    const char* rank;
  };
  static constexpr Launcher launchers[] = {{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
                                           {"PMI_SIZE", "PMI_RANK"},
                                           {"MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_RANK"},
                                           {nullptr, "PMIX_RANK"}};
  MpiLaunch launch;
  for (const Launcher& l : launchers) {
    const int size = l.size ? count_of(get(l.size)) : -1, rank = count_of(get(l.rank));
    if (size < 1 && rank < 0) continue;
    launch.launched = true;
    launch.variable = size >= 1 ? l.size : l.rank;
    launch.size = size >= 1 ? size : 0;  // 0: unknown until MPI_Init
    launch.rank = std::max(rank, 0);
    return launch;
  }
  return launch;
}

MpiLaunch detect_mpi_launch() {
  return detect_mpi_launch([](const char* name) { return static_cast<const char*>(std::getenv(name)); });
}

bool mpi_built() {
#if YEEX_HAVE_MPI
  return true;
#else
  return false;
#endif
}

#if !YEEX_HAVE_MPI
// Without MPI an MpiSession cannot exist; main never creates one (it refuses MPI launches first).
MpiSession::MpiSession(int&, char**&) {
  throw std::runtime_error("this build has no MPI (configure with YEEX_ENABLE_MPI=ON)");
}
MpiSession::~MpiSession() = default;
const ProcessGroup& MpiSession::world() const { return *world_; }
std::string mpi_library_version() { return "none"; }
bool mpi_cuda_aware() { return false; }
#endif

}  // namespace yeex
