#include "src/solver/engines.hpp"

#include <optional>
#include <stdexcept>

#include "kernels/host/host_engine.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif
#if YEEX_HAVE_KOKKOS
#include "kernels/kokkos/kokkos_engine.hpp"
#endif

namespace yeex {
namespace {

// One engine's entry; nullopt for an unknown name. Only the named engine is probed.
std::optional<EngineInfo> engine_info(const std::string& name) {
  if (name == "host") return EngineInfo{"host", "C++ loops with OpenMP on the CPU", true, ""};
  if (name == "cuda") {
#if YEEX_HAVE_CUDA
    const int gpus = cuda_device_count();
    if (gpus == 0) return EngineInfo{"cuda", "hand-written CUDA kernels", false, "no CUDA device is visible"};
    for (int device = 0; device < gpus; ++device)
      if (std::string why = cuda_device_unsupported(device); !why.empty())
        return EngineInfo{"cuda", "hand-written CUDA kernels", false, std::move(why)};
    return EngineInfo{"cuda", "hand-written CUDA kernels", true, ""};
#else
    return EngineInfo{"cuda", "hand-written CUDA kernels", false,
                      "this build has no CUDA (configure with YEEX_ENABLE_CUDA=ON)"};
#endif
  }
  if (name == "kokkos") {
#if YEEX_HAVE_KOKKOS
    return EngineInfo{"kokkos", "Kokkos parallel_for (" + kokkos_description() + ")", kokkos_ready(),
                      kokkos_ready() ? "" : "Kokkos is not initialised (a program must hold an EngineRuntimes)"};
#else
    return EngineInfo{"kokkos", "Kokkos parallel_for", false,
                      "this build has no Kokkos (configure with YEEX_ENABLE_KOKKOS=ON)"};
#endif
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> engine_names() { return {"host", "cuda", "kokkos"}; }

std::vector<EngineInfo> engine_list() {
  std::vector<EngineInfo> list;
  for (const std::string& name : engine_names()) list.push_back(*engine_info(name));
  return list;
}

std::string engine_description(const std::string& name) {
  const std::optional<EngineInfo> e = engine_info(name);
  return e ? e->description : "";
}

// A visible GPU this build has no code for is not passed over for the host: the run then stops
// with cuda_device_unsupported's message (how to build for it) instead of running slowly.
std::string default_engine() {
#if YEEX_HAVE_CUDA
  if (cuda_device_count() > 0) return "cuda";
#endif
  return "host";
}

template <typename Real>
std::unique_ptr<Engine<Real>> make_engine(const std::string& name, const EngineSetup<Real>& setup,
                                          const CudaEngineOptions& cuda) {
  (void)cuda;  // a build without CUDA
  const std::optional<EngineInfo> e = engine_info(name);
  if (!e) throw std::invalid_argument("unknown engine '" + name + "'");
  if (!e->available) throw std::invalid_argument("engine '" + name + "' cannot run here: " + e->why_not);
  if (name == "host") return make_host_engine(setup);
#if YEEX_HAVE_CUDA
  if (name == "cuda") return make_cuda_engine(setup, cuda);
#endif
#if YEEX_HAVE_KOKKOS
  if (name == "kokkos") return make_kokkos_engine(setup);
#endif
  throw std::logic_error("engine '" + name + "' is available but has no factory");
}

template std::unique_ptr<Engine<float>> make_engine<float>(const std::string&, const EngineSetup<float>&,
                                                           const CudaEngineOptions&);
template std::unique_ptr<Engine<double>> make_engine<double>(const std::string&, const EngineSetup<double>&,
                                                             const CudaEngineOptions&);

}  // namespace yeex
