// The engine registry: names users pass to --engine, whether each can run here, and factories.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_engine_options.hpp"
#include "kernels/engine.hpp"
#if YEEX_HAVE_KOKKOS
#include "kernels/kokkos/kokkos_engine.hpp"
#endif

namespace yeex {

struct EngineInfo {
  std::string name;
  std::string description;
  bool available = false;
  std::string why_not;  // when not available
};

// Every engine's name, built here or not (what --engine accepts); probes nothing.
std::vector<std::string> engine_names();
// Every engine, with whether it can run here.
std::vector<EngineInfo> engine_list();
// What an engine is, for the reports' provenance ("Kokkos parallel_for (Kokkos 5.2.2 on OpenMP,
// 16 threads)"); empty for an unknown name.
std::string engine_description(const std::string& name);
// "cuda" when a GPU is usable, else "host".
std::string default_engine();

// The runtimes the engines need, set up for the life of the program (Kokkos, in a build with the
// kokkos engine): main holds one, as does a test program that makes kokkos engines. Engines
// must be gone before it is.
struct EngineRuntimes {
#if YEEX_HAVE_KOKKOS
  KokkosRuntime kokkos;
#endif
};

// Throws std::invalid_argument for an unknown or unavailable engine.
// `cuda`: the cuda engine's options (ignored by the others).
template <typename Real>
std::unique_ptr<Engine<Real>> make_engine(const std::string& name, const EngineSetup<Real>& setup,
                                          const CudaEngineOptions& cuda = {});

}  // namespace yeex
