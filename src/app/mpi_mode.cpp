#include "src/app/mpi_mode.hpp"

#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

#if YEEX_HAVE_CUDA
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {
namespace {

std::string host_name() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  return host;
}

std::string joined(const std::vector<std::string>& arguments) {
  std::string s;
  for (const auto& a : arguments) s += (s.empty() ? "" : " ") + a;
  return s;
}

// "0000:18:00.0", or "" when the runtime cannot tell (no CUDA in this build).
std::string pci_bus_id(int device) {
#if YEEX_HAVE_CUDA
  char id[32] = "";
  if (cudaDeviceGetPCIBusId(id, sizeof id, device) == cudaSuccess) return id;
  cudaGetLastError();
#endif
  (void)device;
  return "";
}

}  // namespace

std::uint64_t command_line_hash(const std::vector<std::string>& arguments) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto mix = [&](unsigned char byte) {
    h ^= byte;
    h *= 0x100000001b3ull;
  };
  for (const std::string& a : arguments) {
    for (char c : a) mix(static_cast<unsigned char>(c));
    mix(0);
  }
  return h;
}

std::string rank_name(int rank) { return "rank " + std::to_string(rank) + " on " + host_name(); }

GroupProblem describe_current_exception(int rank) {
  GroupProblem p;
  p.rank = rank;
  try {
    throw;
  } catch (const DeckError& e) {
    p = {rank, 2, std::string("error in deck: ") + e.what()};
  } catch (const UsageError& e) {
    p = {rank, 2, e.what()};
  } catch (const std::exception& e) {
    p = {rank, 1, std::string("run failed: ") + e.what()};
  } catch (...) {
    p = {rank, 1, "run failed: unknown error"};
  }
  if (rank != 0) p.message = rank_name(rank) + ": " + p.message;
  return p;
}

void exit_on_problem(const ProcessGroup& group, const std::optional<GroupProblem>& mine) {
  const std::optional<GroupProblem> problem = first_problem(group, mine);
  if (!problem) return;
  if (group.rank() == 0) {
    std::fprintf(stderr, "yeex: %s\n", problem->message.c_str());
    std::fflush(stderr);
  }
  throw AgreedExit(problem->exit_code);
}

void check_same_arguments(const ProcessGroup& world, const std::vector<std::string>& arguments) {
  const std::uint64_t mine = command_line_hash(arguments);
  const std::string root_arguments = broadcast_string(world, world.rank() == 0 ? joined(arguments) : "");
  const std::uint64_t root = broadcast_u64(world, mine);
  std::optional<GroupProblem> problem;
  if (mine != root)
    problem = GroupProblem{world.rank(), 2,
                           rank_name(world.rank()) + " was started with the arguments '" + joined(arguments) +
                               "', rank 0 with '" + root_arguments +
                               "': every rank must get the same arguments (mpirun -np N yeex ...)"};
  exit_on_problem(world, problem);
}

int choose_rank_gpu(const ProcessGroup& world, const SplitOptions& split) {
  int visible = 0;
#if YEEX_HAVE_CUDA
  visible = cuda_device_count();
#endif
  const NodePlacement place = world.placement();
  const std::string here = std::to_string(place.local_size) + " rank(s) run on " + host_name();
  if (split.devices.empty()) {
    if (visible == 0) throw UsageError("no CUDA device is visible to " + rank_name(world.rank()));
    return place.local_rank % visible;
  }
  if (place.local_rank >= static_cast<int>(split.devices.size()))
    throw UsageError("--devices lists " + std::to_string(split.devices.size()) +
                     " GPU(s) for the ranks of a node, but " + here);
  const int device = split.devices[place.local_rank];
  if (device < 0 || device >= visible)
    throw UsageError("--devices: GPU " + std::to_string(device) + " does not exist on " + host_name() + " (" +
                     std::to_string(visible) + " visible)");
  return device;
}

std::string gpu_placement_entry(int node, const std::string& gpu, const std::string& host) {
  return std::to_string(node) + "|" + gpu + "|" + host;
}

std::optional<std::string> shared_gpu(const std::vector<std::string>& entries) {
  std::map<std::string, int> first_user;  // "NODE|GPU" -> rank
  for (int r = 0; r < static_cast<int>(entries.size()); ++r) {
    const std::string& e = entries[r];
    const std::size_t gpu_at = e.find('|') + 1, host_at = e.rfind('|') + 1;
    const auto [at, fresh] = first_user.emplace(e.substr(0, host_at - 1), r);
    if (!fresh)
      return "ranks " + std::to_string(at->second) + " and " + std::to_string(r) + " on " + e.substr(host_at) +
             " would share one GPU (" + e.substr(gpu_at, host_at - 1 - gpu_at) +
             "): more ranks on the node than GPUs visible to them. Start one rank per GPU (e.g. mpirun -np N "
             "--map-by ppr:GPUS_PER_NODE:node), or let ranks share GPUs with --oversubscribe-gpus";
  }
  return std::nullopt;
}

void check_gpu_sharing(const ProcessGroup& world, int device, bool allow_sharing) {
  std::string id = pci_bus_id(device);
  if (id.empty()) id = "GPU " + std::to_string(device);
  const std::vector<std::string> all =
      gather_strings(world, gpu_placement_entry(world.placement().node, id, host_name()));
  std::optional<GroupProblem> problem;
  if (world.rank() == 0 && !allow_sharing)
    if (const auto why = shared_gpu(all)) problem = GroupProblem{0, 2, *why};
  exit_on_problem(world, problem);
}

int share_cores_among_node_ranks(const ProcessGroup& world) {
  cpu_set_t mask;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const bool unbound = sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) >= cores;
  if (!std::getenv("OMP_NUM_THREADS") && unbound && cores > 0)
    omp_set_num_threads(std::max(1, cores / world.placement().local_size));
  return omp_get_max_threads();
}

nlohmann::json rank_table(const ProcessGroup& world, int device) {
  const NodePlacement place = world.placement();
  nlohmann::json me{{"rank", world.rank()},
                    {"host", host_name()},
                    {"node_rank", place.local_rank},
                    {"node_ranks", place.local_size},
                    {"openmp_threads", omp_get_max_threads()}};
  if (device >= 0) {
    nlohmann::json gpu{{"index", device}, {"pci_bus_id", pci_bus_id(device)}};
#if YEEX_HAVE_CUDA
    gpu["name"] = cuda_device_name(device);
#endif
    me["gpu"] = gpu;
  } else {
    me["gpu"] = nullptr;
  }
  const std::vector<std::string> all = gather_strings(world, me.dump());
  if (world.rank() != 0) return nullptr;
  nlohmann::json table = nlohmann::json::array();
  for (const auto& text : all) table.push_back(nlohmann::json::parse(text));
  return table;
}

}  // namespace yeex
