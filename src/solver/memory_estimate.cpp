#include "src/solver/memory_estimate.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "decomposition/halo_plan.hpp"
#include "io/probe_writer.hpp"
#include "kernels/engine.hpp"
#include "kernels/field_layout.hpp"
#include "src/solver/checkpointing.hpp"
#include "src/solver/cpml_setup.hpp"
#include "src/solver/model.hpp"
#include "src/solver/tfsf_setup.hpp"

namespace yeex {

std::size_t estimate_engine_bytes(const Deck& deck, int precision_bits, int slabs, Index halo_depth) {
  const std::size_t real = precision_bits / 8;
  const GridShape& g = deck.grid;
  // SlabDecomposition's split: nz / N planes a slab, one more for the first nz % N, the inert
  // plane nz with the last: the largest stores nz / N + 1 planes.
  const Index n = std::clamp<Index>(slabs, 1, std::max<Index>(g.nz, 1));
  const Index planes = g.nz / n + 1;
  const FieldLayout L = FieldLayout::make(g.nx + 1, g.ny + 1, planes, std::max<Index>(halo_depth, 1), real);
  const std::size_t elements = static_cast<std::size_t>(L.elements());
  const std::size_t sources =
      deck.sources.size() * static_cast<std::size_t>(deck.step_count()) * real + tfsf_bytes(deck, real).engine;
  // CPML: the first slab holds the z_min face, the last the z_max one; both the x and y faces.
  const std::size_t psi = std::max(cpml_psi_elements(deck, L, 0), cpml_psi_elements(deck, L, g.nz + 1 - planes)) * real;
  // The cuda engine's fields and class bytes, in its smallest arena where large.
  return field_arena_bytes(elements, real, kSlotUnits[0]) + sources + psi + (std::size_t(1) << 20);
}

ProbeStorage probe_storage_bytes(std::size_t probe_components, Index steps, Index probe_slots, std::size_t real,
                                 bool to_file) {
  const std::size_t slots = static_cast<std::size_t>(std::max<Index>(probe_slots, 1));
  ProbeStorage p;
  p.engine_buffer = probe_components * (slots * real + sizeof(ProbePoint));
  p.host_drain = probe_components * slots * (real + 2 * sizeof(double));
  const Index held = to_file ? probe_chunk(probe_components, steps) : steps;
  p.host_series = probe_components * static_cast<std::size_t>(held) * sizeof(double);
  // HDF5's own state for each dataset of probes.h5 (metadata cache, free lists): an allowance per
  // series, from measured runs (docs/limits.md, "Probes").
  constexpr std::size_t kHdf5BytesPerSeries = 20 << 10;
  if (to_file) p.host_series += probe_components * kHdf5BytesPerSeries;
  return p;
}

std::string gib(std::size_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f GiB", bytes / double(1u << 30));
  return b;
}

std::size_t host_memory_bytes() {
  return static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGE_SIZE));
}

bool checksum_components_at_once(std::size_t largest_array_bytes, int processes, const std::string& engine) {
  // (Not on the kokkos engine: its copies are Kokkos dispatches, not for an OpenMP parallel region.)
  return processes == 1 && engine != "kokkos" && kComponentCount * largest_array_bytes <= host_memory_bytes() / 4;
}

namespace {

// What one slab's engine holds, bytes.
struct SlabBytes {
  std::size_t elements = 0;  // of one field array (also the class bytes, one a node)
  std::size_t sources = 0;   // source samples, every step
  std::size_t cpml = 0;
  std::size_t dispersion = 0;  // pole state and rows, bounded by the boxes of the dispersive objects
  std::size_t probes = 0;      // buffer and probe points
};

// State values a node with state holds (kernels/dispersion.hpp: 3 components, a value per pole,
// two per Lorentz pole, of the material in use with the most) and the nodes of global planes
// [k0, k1) inside the bounding box of an object made of a dispersive material: at least the
// nodes the engine gives state to.
std::pair<std::size_t, std::size_t> dispersion_bound(const Deck& deck, Index k0, Index k1) {
  std::size_t states = 0, nodes = 0;
  const GridShape& g = deck.grid;
  const Index extent[3] = {g.nx + 1, g.ny + 1, g.nz + 1};
  for (const GeometryObject& o : deck.geometry) {
    const auto m = find_material(deck, o.material);
    if (!m || !m->dispersive()) continue;
    std::size_t s = 0;
    for (const Pole& p : m->poles) s += p.kind == PoleKind::lorentz ? 2 : 1;
    states = std::max(states, 3 * s);
    std::size_t box = 1;
    for (int a = 0; a < 3; ++a) {
      double lo = 0, hi = 0;
      if (o.shape == ShapeKind::box)
        lo = o.lower[a], hi = o.upper[a];
      else if (o.shape == ShapeKind::cylinder && a == o.axis)
        lo = o.axis_lower, hi = o.axis_upper;
      else
        lo = o.centre[a] - o.radius, hi = o.centre[a] + o.radius;
      Index first = std::max<Index>(0, static_cast<Index>(std::floor(lo / deck.cell_size[a])) - 1);
      Index last = std::min<Index>(extent[a], static_cast<Index>(std::ceil(hi / deck.cell_size[a])) + 2);
      if (a == 2) first = std::max(first, k0), last = std::min(last, k1);
      box *= last > first ? static_cast<std::size_t>(last - first) : 0;
    }
    nodes += box;
  }
  return {states, nodes};
}

// Nodes of a snapshot's box: the whole grid, or one plane of it.
std::size_t snapshot_nodes(const GridShape& g, const Snapshot& s) {
  std::array<std::size_t, 3> n{std::size_t(g.nx + 1), std::size_t(g.ny + 1), std::size_t(g.nz + 1)};
  if (s.plane_axis) n[*s.plane_axis] = 1;
  return n[0] * n[1] * n[2];
}

}  // namespace

MemoryEstimate estimate_run_memory(const Deck& deck, const RunConfig& config, const SlabDecomposition& split) {
  const std::size_t real = config.precision_bits / 8;
  const bool cuda = config.engine == "cuda", mpi = config.processes != nullptr;
  const GridShape& g = deck.grid;
  const std::size_t steps = static_cast<std::size_t>(deck.step_count());
  const Index slots = config.probe_slots;

  std::vector<Index> source_plane;
  for (const auto& s : deck.sources) source_plane.push_back(nearest_node(g, deck.cell_size, s.position)[2]);
  std::vector<std::pair<Index, std::size_t>> probe_plane;  // node plane, components
  std::size_t probe_components = 0;
  for (const auto& p : deck.probes) {
    probe_plane.emplace_back(nearest_node(g, deck.cell_size, p.position)[2], p.components.size());
    probe_components += p.components.size();
  }

  // Plane waves: every engine holds the whole incident table (and at most all corrected nodes),
  // counted with its source samples; the model holds the table in double.
  const TfsfBytes tfsf = tfsf_bytes(deck, real);
  std::vector<SlabBytes> slab(split.size());
  for (int s = 0; s < split.size(); ++s) {
    const SlabSubdomain& sub = split.subdomain(s);
    const FieldLayout L = FieldLayout::make(g.nx + 1, g.ny + 1, sub.stored_planes, sub.ghost, real);
    slab[s].elements = static_cast<std::size_t>(L.elements());
    const PlaneRange sources = source_planes(split, s, split.halo_depth());
    slab[s].sources =
        real * steps *
            std::count_if(source_plane.begin(), source_plane.end(), [&](Index k) { return sources.contains(k); }) +
        tfsf.engine;
    const NodeRange own = split.owned_nodes(s);
    std::size_t components = 0;
    for (const auto& [k, count] : probe_plane)
      if (own.k0 <= k && k < own.k1) components += count;
    slab[s].probes = probe_storage_bytes(components, Index(steps), slots, real, false).engine_buffer;
    slab[s].cpml = cpml_psi_elements(deck, L, sub.k_begin) * real;
    const auto [states, nodes] =
        dispersion_bound(deck, sub.k_begin - sub.ghost, sub.k_begin + sub.stored_planes + sub.ghost);
    const std::size_t slab_nodes = slab[s].elements;
    slab[s].dispersion = std::min(nodes, slab_nodes) * (states * real + sizeof(DispersiveRow) / 8);
  }

  MemoryEstimate m;
  m.processes_per_node = mpi ? config.processes->placement().local_size : 1;
  // This process's slabs: threads mode every one; MPI mode one, the one that costs the most.
  std::vector<int> local;
  if (mpi) {
    const auto cost = [&](const SlabBytes& b) {
      return b.elements * (kComponentCount * real + 1) + b.sources + b.cpml + b.dispersion;
    };
    local = {
        static_cast<int>(std::max_element(slab.begin(), slab.end(),
                                          [&](const SlabBytes& a, const SlabBytes& b) { return cost(a) < cost(b); }) -
                         slab.begin())};
  } else {
    for (int s = 0; s < split.size(); ++s) local.push_back(s);
  }

  if (cuda) {
    // Per GPU: the slabs it holds (threads mode: config.devices names each slab's GPU; MPI mode:
    // one slab a rank); the GPU that needs the most.
    std::map<int, MemoryEstimate> gpu;
    for (int s : local) {
      MemoryEstimate& e = gpu[mpi || config.devices.empty() ? 0 : config.devices[s]];
      e.device_fields += field_arena_bytes(slab[s].elements, real, kSlotUnits[0]);
      e.device_sources += slab[s].sources;
      e.device_cpml += slab[s].cpml;
      e.device_dispersion += slab[s].dispersion;
      e.device_probes += slab[s].probes;
      e.device_reserve += std::size_t(1) << 20;
    }
    for (const auto& [device, e] : gpu)
      if (e.device_total() > m.device_total()) {
        m.device_fields = e.device_fields;
        m.device_sources = e.device_sources;
        m.device_cpml = e.device_cpml;
        m.device_dispersion = e.device_dispersion;
        m.device_probes = e.device_probes;
        m.device_reserve = e.device_reserve;
      }
    for (int s : local) m.host_setup += slab[s].elements + slab[s].sources;
  } else {
    for (int s : local)
      m.host_engines += slab[s].elements * (kComponentCount * real + 1) + slab[s].sources + slab[s].cpml +
                        slab[s].dispersion + slab[s].probes;
  }
  m.host_sources = deck.sources.size() * steps * sizeof(double) + tfsf.host;
  const ProbeStorage probes =
      probe_storage_bytes(probe_components, Index(steps), slots, real, config.output_dir.has_value());
  m.host_probes = probes.host_drain + probes.host_series;
  // One whole array kept for downloads, then the larger of: the checksum's six buffers, or a
  // snapshot's box and the piece of it being cut (MPI mode: rank 0 also gathers the ranks' pieces
  // and joins them).
  std::size_t largest = 0;
  for (int s : local) largest = std::max(largest, slab[s].elements * real);
  const std::size_t checksum = checksum_components_at_once(largest, mpi ? config.processes->size() : 1, config.engine)
                                   ? kComponentCount * largest
                                   : 0;
  std::size_t snapshot = 0;
  for (const auto& s : deck.snapshots) snapshot = std::max(snapshot, snapshot_nodes(g, s) * real * (mpi ? 3 : 2));
  m.host_staging = largest + std::max(checksum, snapshot);
  if (config.checkpoint.file || config.checkpoint.resume) {
    const std::size_t nodes = std::size_t(g.nx + 1) * std::size_t(g.ny + 1) * std::size_t(g.nz + 1);
    std::size_t psi = 0;
    for (const auto& [face, shape] : cpml_global_shapes(deck))
      psi = std::max(psi, std::size_t(4 * shape[0] * shape[1] * shape[2]) * real);
    std::size_t frame = 0;
    for (const auto& s : deck.snapshots) frame = std::max(frame, snapshot_nodes(g, s) * sizeof(double));
    const auto [states, dispersive] = dispersion_bound(deck, 0, g.nz + 1);
    const std::size_t pole_state = std::min(dispersive, nodes) * states * real;  // the whole grid's, one copy
    m.host_checkpoint = nodes * real + largest + std::max(psi, pole_state) + std::max(steps * sizeof(double), frame);
  }
  return m;
}

}  // namespace yeex
