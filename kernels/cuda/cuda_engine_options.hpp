// What a run may fix about the cuda engine instead of letting it choose. Plain C++, so that the
// solver and the command line can hold one without CUDA.
#pragma once

#include <cstddef>

#include "decomposition/grid.hpp"

namespace yeex {

struct CudaEngineOptions {
  // The field arena's slot unit in bytes (kernels/field_layout.hpp, --arena-unit); 0: the
  // engine's placement trial picks it.
  std::size_t arena_unit = 0;

  // Test seams: code paths the engine takes by default on other GPUs or other shapes, forced here
  // so that one GPU's tests cover them (tests/gpu).
  // false: plain launches, as on GPUs before compute capability 9.0, which have no programmatic
  // dependent launch.
  bool dependent_launches = true;
  // false: one node a thread in the float sweeps, the form of rows where node pairs do not fit.
  bool node_pairs = true;
  // The smallest CPML shell, in nodes, that a bulk sweep forks onto the shell stream; -1: the
  // engine's own (kShellForkNodes), 0: every shell.
  Index shell_fork_nodes = -1;
  // false: the sources go in after the E sweeps, as in a run with CPML or more than 32 sources,
  // instead of folded into the plain E sweeps.
  bool fold_sources = true;
};

}  // namespace yeex
