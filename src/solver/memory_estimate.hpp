// What a run holds in memory, counted before the model is built (cheap: nothing here allocates
// or loops over steps or nodes), on each GPU and on the host: the field arena, source samples
// (plane waves' incident tables with them), CPML psi, probe buffers and series, and the host's
// staging for checksums and snapshots. The
// run plan (src/plan/run_plan.hpp) compares it with what the process may use.
#pragma once

#include <cstddef>
#include <string>

#include "decomposition/slab_decomposition.hpp"
#include "io/deck.hpp"
#include "src/solver/run_config.hpp"

namespace yeex {

// Bytes of memory the largest slab's engine needs when a run of this deck is split into `slabs`
// z-slabs with `halo_depth` ghost planes on each side (fields, classes, source samples, CPML psi,
// each array rounded as the cuda engine allocates it). A split the grid cannot take is estimated
// as one slab of a plane. (bench's rows; a run's whole need is estimate_run_memory's.)
std::size_t estimate_engine_bytes(const Deck& deck, int precision_bits, int slabs = 1, Index halo_depth = 1);

// The probes' memory: each engine buffers `probe_slots` samples of its probe components (on its
// GPU; in host memory on a CPU engine); each drain copies them to the host as Real, into the
// process's list as double and, gathered, into one more copy; rank 0 then holds, as double, one
// chunk per series (probe_chunk) when it writes probes.h5 as it goes (`to_file`), else every
// series whole.
struct ProbeStorage {
  std::size_t engine_buffer = 0;  // the engines' buffers, with their probe points
  std::size_t host_drain = 0;     // one drain's host copies
  std::size_t host_series = 0;    // rank 0: a chunk of each series, or the whole series
};
ProbeStorage probe_storage_bytes(std::size_t probe_components, Index steps, Index probe_slots, std::size_t real,
                                 bool to_file);

// `bytes` as "1.23 GiB".
std::string gib(std::size_t bytes);

// Physical memory of this host, bytes.
std::size_t host_memory_bytes();
// Whether the final checksum hashes the six components at once, each into its own host buffer of
// the largest array (threads mode, not the kokkos engine, six such buffers within a quarter of
// the host's memory), or one after the other through one buffer.
bool checksum_components_at_once(std::size_t largest_array_bytes, int processes, const std::string& engine);

// A run's memory, bytes. Device: one GPU (the cuda engine; the GPU that holds the most), zero on
// the CPU engines. Host: one process (MPI mode: rank 0, which also gathers the probes and the
// snapshots); the node needs host_total() x processes_per_node.
struct MemoryEstimate {
  std::size_t device_fields = 0;   // field arenas and class bytes
  std::size_t device_sources = 0;  // source samples of the slabs' sources and plane waves' incident tables, every step
  std::size_t device_cpml = 0;     // CPML psi
  std::size_t device_dispersion = 0;  // dispersive nodes' pole state and rows (a bound: their objects' boxes)
  std::size_t device_probes = 0;      // probe buffers
  std::size_t device_reserve = 0;     // a MiB a slab for the small arrays (tables, flags)
  std::size_t host_engines = 0;  // CPU engines: the slabs' fields, class bytes, CPML, source samples, probe buffers
  std::size_t host_setup = 0;    // cuda engine: the engine set-ups (class bytes, source samples) before upload
  std::size_t host_sources = 0;  // the model's source samples and incident tables (double, every step)
  std::size_t host_probes = 0;   // probe drains and series (probe_storage_bytes)
  std::size_t host_staging = 0;  // downloads for the checksum and the snapshots
  // Checkpoints (written or resumed from): one component over the whole grid and a slab's array,
  // a CPML face's psi over the whole grid, one probe series or snapshot dataset (as double).
  std::size_t host_checkpoint = 0;
  int processes_per_node = 1;

  std::size_t device_total() const {
    return device_fields + device_sources + device_cpml + device_dispersion + device_probes + device_reserve;
  }
  std::size_t host_total() const {
    return host_engines + host_setup + host_sources + host_probes + host_staging + host_checkpoint;
  }
  std::size_t node_total() const { return host_total() * static_cast<std::size_t>(processes_per_node); }
};

// The memory of a run of `deck` split as `config` says (engine, devices, precision, probe slots,
// processes) into `split`, a decomposition check_run_config accepted. Time and memory independent
// of the step count; linear in the sources, probes and snapshots.
MemoryEstimate estimate_run_memory(const Deck& deck, const RunConfig& config, const SlabDecomposition& split);

}  // namespace yeex
