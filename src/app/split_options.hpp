// Resolving a command's SplitOptions into a RunConfig (engine, GPUs or host slabs, backend), and
// what a split needs in memory. Bad values throw UsageError (src/app/commands.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "src/app/commands.hpp"
#include "src/runtime/process_group.hpp"
#include "src/solver/solver.hpp"

namespace yeex {

// 64 for "f64", else 32.
int precision_bits(const std::string& precision);
// The engine named (empty: the default engine); throws UsageError for one unknown or unable to run here.
std::string resolve_engine(const std::string& requested);

// Engine, GPUs, slabs and backend of a run; throws UsageError for what cannot run here.
RunConfig resolve_split(const SplitOptions& o);
// MPI mode: rank 0's engine (its default when none is named), so that every rank runs the same.
std::string agreed_engine(const ProcessGroup* world, const std::string& requested);
// The split of a run in either mode; MPI mode also refuses ranks sharing a GPU (collective).
RunConfig resolve_any_split(SplitOptions o, const ProcessGroup* world);
// Bytes one device (or the host) needs for a split into `slabs` whose largest slab's engine needs
// `per_slab` (estimate_engine_bytes).
std::size_t bytes_per_process(std::size_t per_slab, const RunConfig& config, int slabs);

}  // namespace yeex
