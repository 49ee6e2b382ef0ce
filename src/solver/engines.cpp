#include "src/solver/engines.hpp"

#include <stdexcept>

#include "kernels/host/host_engine.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif
#if YEEX_HAVE_KOKKOS
#include "kernels/kokkos/kokkos_engine.hpp"
#endif

namespace yeex {

std::vector<EngineInfo> engine_list() {
  std::vector<EngineInfo> list;
  list.push_back({"host", "C++ loops with OpenMP on the CPU", true, ""});
#if YEEX_HAVE_CUDA
  const int gpus = cuda_device_count();
  list.push_back({"cuda", "hand-written CUDA kernels", gpus > 0, gpus > 0 ? "" : "no CUDA device is visible"});
#else
  list.push_back({"cuda", "hand-written CUDA kernels", false, "this build has no CUDA (configure with YEEX_ENABLE_CUDA=ON)"});
#endif
#if YEEX_HAVE_KOKKOS
  list.push_back({"kokkos", "Kokkos parallel_for (" + kokkos_description() + ")", kokkos_ready(),
                  kokkos_ready() ? "" : "Kokkos is not initialised (a program must hold an EngineRuntimes)"});
#else
  list.push_back({"kokkos", "Kokkos parallel_for", false, "this build has no Kokkos (configure with YEEX_ENABLE_KOKKOS=ON)"});
#endif
  return list;
}

std::string default_engine() {
  for (const auto& e : engine_list())
    if (e.name == "cuda" && e.available) return "cuda";
  return "host";
}

template <typename Real>
std::unique_ptr<Engine<Real>> make_engine(const std::string& name, const EngineSetup<Real>& setup) {
  for (const auto& e : engine_list()) {
    if (e.name != name) continue;
    if (!e.available) throw std::invalid_argument("engine '" + name + "' cannot run here: " + e.why_not);
    if (name == "host") return make_host_engine(setup);
#if YEEX_HAVE_CUDA
    if (name == "cuda") return make_cuda_engine(setup);
#endif
#if YEEX_HAVE_KOKKOS
    if (name == "kokkos") return make_kokkos_engine(setup);
#endif
  }
  throw std::invalid_argument("unknown engine '" + name + "'");
}

std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const auto& e : engine_list()) names.push_back(e.name);
  return names;
}

std::string engine_description(const std::string& name) {
  for (const auto& e : engine_list())
    if (e.name == name) return e.description;
  return "";
}

template std::unique_ptr<Engine<float>> make_engine<float>(const std::string&, const EngineSetup<float>&);
template std::unique_ptr<Engine<double>> make_engine<double>(const std::string&, const EngineSetup<double>&);

}  // namespace yeex
