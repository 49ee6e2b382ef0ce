// The kokkos engine: Kokkos parallel_for loops over the cell functions of kernels/yee_stencil.hpp,
// on Kokkos's default execution space (built with YEEX_ENABLE_KOKKOS=ON).
#pragma once

#include <memory>
#include <string>

#include "kernels/engine.hpp"

namespace yeex {

// "Kokkos 5.2.2 on OpenMP, 16 threads": the library and the execution space it runs on.
std::string kokkos_description();
// Whether Kokkos has been initialised (by KokkosRuntime, in main): the engine needs it.
bool kokkos_ready();

// Initialises Kokkos for the life of the object, and finalises it (STYLE.md: in main, never in
// a constructor of an engine). Every engine must be gone before it is.
class KokkosRuntime {
 public:
  KokkosRuntime();
  ~KokkosRuntime();
  KokkosRuntime(const KokkosRuntime&) = delete;
  KokkosRuntime& operator=(const KokkosRuntime&) = delete;
};

template <typename Real>
std::unique_ptr<Engine<Real>> make_kokkos_engine(const EngineSetup<Real>& setup);

}  // namespace yeex
