// The selected GPUs: the shared topology detection (src/runtime/topology.hpp) plus what only the
// benchmark needs, their free memory. Without CUDA in the build it sees no GPU.
#include "src/p2p/p2p_test.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex::p2p {

#if YEEX_HAVE_CUDA
int visible_gpu_count() { return cuda_device_count(); }

Machine detect_machine(const std::vector<int>& devices) {
  Machine machine;
  machine.topology = detect_topology(devices);  // main passes every visible GPU when none was chosen
  for (const auto& g : machine.topology.gpus) {
    Machine::Memory m;
    cuda_memory_info(g.device, m.free_bytes, m.total_bytes);
    machine.memory.push_back(m);
  }
  return machine;
}
#else
int visible_gpu_count() { return 0; }
Machine detect_machine(const std::vector<int>&) {
  Machine machine;
  machine.topology = detect_topology();
  return machine;
}
#endif

}  // namespace yeex::p2p
