// What the CUDA runtime says about the selected GPUs: the `topo` subcommand and the "topology"
// key of every JSON file. Without CUDA in the build it sees no GPU.
// Not there yet: NVML link types (NVLink generation and count, PCIe switch levels) - NVML is
// not a dependency of the build; the performance rank below is the runtime's proxy for them.
#include <cmath>

#include "src/p2p/p2p_test.hpp"
#if YEEX_HAVE_CUDA
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex::p2p {

#if YEEX_HAVE_CUDA
namespace {

int attribute_or(cudaDeviceAttr attr, int device, int fallback) {
  int value = fallback;
  if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) {
    cudaGetLastError();
    return fallback;
  }
  return value;
}

Matrix link_matrix(const std::vector<GpuInfo>& gpus, cudaDeviceP2PAttr attr, const std::string& title,
                   const std::string& definition) {
  Matrix m{title, definition, "", "dst", "src", {}, {}, {}, 0};
  for (const auto& g : gpus) m.rows.push_back(std::to_string(g.device));
  m.columns = m.rows;
  for (const auto& dst : gpus) {
    std::vector<double> row;
    for (const auto& src : gpus) {
      int value = 0;
      if (src.device == dst.device || cudaDeviceGetP2PAttribute(&value, attr, src.device, dst.device) != cudaSuccess) {
        cudaGetLastError();
        row.push_back(NAN);
      } else {
        row.push_back(value);
      }
    }
    m.values.push_back(row);
  }
  return m;
}

}  // namespace

int visible_gpu_count() { return cuda_device_count(); }

Machine detect_machine(const std::vector<int>& devices) {
  Machine machine;
  for (int d : devices) {
    GpuInfo g;
    g.device = d;
    g.name = cuda_device_name(d);
    char bus[32] = {};
    YEEX_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, d));
    g.pci_bus_id = bus;
    g.numa_node = attribute_or(cudaDevAttrNumaId, d, -1);
    g.host_numa_node = attribute_or(cudaDevAttrHostNumaId, d, -1);
    cuda_memory_info(d, g.free_bytes, g.total_bytes);
    machine.topology.gpus.push_back(g);
  }
  auto& gpus = machine.topology.gpus;
  machine.topology.links = {
      link_matrix(gpus, cudaDevP2PAttrAccessSupported, "topo/peer-access",
                  "1 if the row GPU's memory can be accessed from the column GPU (cudaDevP2PAttrAccessSupported)"),
      link_matrix(gpus, cudaDevP2PAttrPerformanceRank, "topo/performance-rank",
                  "driver's relative P2P performance rank, 0 = best (cudaDevP2PAttrPerformanceRank)"),
      link_matrix(gpus, cudaDevP2PAttrNativeAtomicSupported, "topo/native-atomics",
                  "1 if atomics over the link are native (cudaDevP2PAttrNativeAtomicSupported)"),
  };
  return machine;
}
#else
int visible_gpu_count() { return 0; }
Machine detect_machine(const std::vector<int>&) { return {}; }
#endif

}  // namespace yeex::p2p
