#include "src/solver/checkpointing.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>

#include "src/solver/field_stats.hpp"

namespace yeex {
namespace {

// Global z plane of plane 0 of a face's global form: node plane 0 for an x or y face (they span
// every plane), the face's first for a z face.
Index first_global_plane(const Deck& deck, int face) {
  if (face / 2 != 2) return 0;
  return face % 2 == 1 ? deck.grid.nz - deck.cpml.cells : 0;
}

// The face of `v` that is global face `face` (2 axis + upper), or null on a slab it misses.
template <typename Real>
const CpmlFace<Real>* local_face(const CpmlView<Real>& v, int face) {
  for (int f = 0; f < v.faces; ++f)
    if (2 * v.face[f].axis + (v.face[f].upper ? 1 : 0) == face) return &v.face[f];
  return nullptr;
}

// Values of one z plane of one phase of a face: its psi pairs.
template <typename Real>
Index psi_plane(const CpmlFace<Real>& f) {
  return 2 * f.ni * f.nj;
}

template <typename Real>
std::vector<Real> read_field(const CheckpointReader& checkpoint, Component c) {
  if constexpr (std::is_same_v<Real, float>)
    return checkpoint.read_field_f32(c);
  else
    return checkpoint.read_field_f64(c);
}

template <typename Real>
std::vector<Real> read_psi(const CheckpointReader& checkpoint, int face) {
  if constexpr (std::is_same_v<Real, float>)
    return checkpoint.read_psi_f32(face);
  else
    return checkpoint.read_psi_f64(face);
}

template <typename Real>
std::vector<Real> read_dispersion(const CheckpointReader& checkpoint) {
  if constexpr (std::is_same_v<Real, float>)
    return checkpoint.read_dispersion_f32();
  else
    return checkpoint.read_dispersion_f64();
}

// The pole state's entries of global node plane k, from the slab that owns it (0 without any).
template <typename Real>
Index plane_entries(const CheckpointedRun<Real>& run, Index k) {
  const SlabDecomposition& d = run.decomposition;
  for (int s = 0; s < d.size(); ++s) {
    const NodeRange own = d.owned_nodes(s);
    if (k < own.k0 || k >= own.k1) continue;
    const auto chunks = run.engines[s]->dispersion_chunks(d.local_k(s, k), d.local_k(s, k) + 1);
    return chunks.empty() ? 0 : chunks.front().count;
  }
  return 0;
}

// The pole state over the grid: each state array's entries in global plane order (each plane's
// from the slab that owns it).
template <typename Real>
void save_dispersion(const CheckpointedRun<Real>& run, CheckpointWriter& out) {
  const SlabDecomposition& d = run.decomposition;
  std::vector<std::vector<StateChunk<Real>>> owned(d.size());
  std::size_t arrays = 0;
  Index entries = 0;
  for (int s = 0; s < d.size(); ++s) {
    const NodeRange own = d.owned_nodes(s);
    owned[s] = run.engines[s]->dispersion_chunks(d.local_k(s, own.k0), d.local_k(s, own.k1));
    if (owned[s].empty()) continue;
    arrays = std::max(arrays, owned[s].size());
    entries += owned[s].front().count;
  }
  if (entries == 0) return;
  std::vector<Real> global(arrays * std::size_t(entries));
  Index at = 0;
  for (int s = 0; s < d.size(); ++s) {
    if (owned[s].empty()) continue;
    if (owned[s].size() != arrays) throw std::logic_error("checkpoint: the pole state's arrays differ between slabs");
    for (std::size_t a = 0; a < arrays; ++a)
      run.engines[s]->read_memory(owned[s][a].data, owned[s][a].count, global.data() + a * entries + at);
    at += owned[s].front().count;
  }
  out.write_dispersion(Index(arrays), entries, std::span<const Real>(global));
}

template <typename Real>
void restore_dispersion(const CheckpointedRun<Real>& run, const CheckpointReader& checkpoint) {
  const SlabDecomposition& d = run.decomposition;
  const Index nodes_z = run.model.grid.nz + 1;
  std::vector<Index> first(std::size_t(nodes_z) + 1, 0);  // global entry of each node plane
  for (Index k = 0; k < nodes_z; ++k) first[k + 1] = first[k] + plane_entries(run, k);
  const auto shape = checkpoint.dispersion_shape();
  if (shape[1] != first.back())
    throw CheckpointError("checkpoint " + checkpoint.path().string() + " holds the pole state of " +
                          std::to_string(shape[1]) + " dispersive nodes, the run's deck has " +
                          std::to_string(first.back()));
  if (first.back() == 0) return;
  const std::vector<Real> global = read_dispersion<Real>(checkpoint);
  for (int s = 0; s < d.size(); ++s) {
    const PlaneRange planes = d.array_planes(s);
    for (Index k = std::max<Index>(planes.begin, 0); k < std::min(planes.end, nodes_z); ++k) {
      const auto chunks = run.engines[s]->dispersion_chunks(d.local_k(s, k), d.local_k(s, k) + 1);
      if (!chunks.empty() && Index(chunks.size()) != shape[0])
        throw CheckpointError("checkpoint " + checkpoint.path().string() + " holds " + std::to_string(shape[0]) +
                              " pole state arrays, the run's deck " + std::to_string(chunks.size()));
      for (std::size_t a = 0; a < chunks.size(); ++a)
        run.engines[s]->write_memory(chunks[a].data, chunks[a].count, global.data() + a * shape[1] + first[k]);
    }
  }
}

}  // namespace

std::vector<std::pair<int, std::array<Index, 3>>> cpml_global_shapes(const Deck& deck) {
  std::vector<std::pair<int, std::array<Index, 3>>> shapes;
  const Index nx = deck.grid.nx + 1, ny = deck.grid.ny + 1, nz = deck.grid.nz + 1, n = deck.cpml.cells;
  for (int face = 0; face < 6; ++face) {
    if (deck.boundary[face] != BoundaryKind::cpml) continue;
    const int axis = face / 2;
    shapes.emplace_back(face, axis == 0   ? std::array<Index, 3>{nz, ny, n}
                              : axis == 1 ? std::array<Index, 3>{nz, n, nx}
                                          : std::array<Index, 3>{n, ny, nx});
  }
  return shapes;
}

void check_checkpoint_fits(const CheckpointReader& checkpoint, const Deck& deck, int precision_bits) {
  std::vector<std::string> snapshots;
  for (const auto& s : deck.snapshots) snapshots.push_back(s.name);
  std::size_t series = 0;
  for (const auto& p : deck.probes) series += p.components.size();
  checkpoint.check_matches({deck.grid.nx, deck.grid.ny, deck.grid.nz}, precision_bits, cpml_global_shapes(deck), series,
                           snapshots);
  const Index step = checkpoint.header().step, steps = deck.step_count();
  if (step >= steps)
    throw CheckpointError("checkpoint " + checkpoint.path().string() + " holds step " + std::to_string(step) +
                          ", the run has " + std::to_string(steps) + " steps: nothing is left to run");
}

template <typename Real>
void save_checkpoint(const CheckpointedRun<Real>& run, Index step) {
  const Model& m = run.model;
  const CheckpointConfig& cp = run.config.checkpoint;
  const SlabDecomposition& d = run.decomposition;
  CheckpointHeader header;
  header.step = step;
  header.steps = m.steps;
  header.precision_bits = run.config.precision_bits;
  header.cells = {m.grid.nx, m.grid.ny, m.grid.nz};
  header.deck_text = cp.deck_text;
  header.deck_origin = cp.deck_origin;
  header.run_json = cp.run_json;
  header.energy_every = run.config.energy_every;
  CheckpointWriter out(*cp.file, header);

  for (Component c : kAllComponents) out.write_field(c, std::span<const Real>(run.gather(c, all_nodes(m.grid))));

  // Each face's psi: every slab contributes the planes it owns.
  for (const auto& [face, shape] : cpml_global_shapes(m.deck)) {
    const Index planes = shape[0], plane = 2 * shape[1] * shape[2], first = first_global_plane(m.deck, face);
    std::vector<Real> global(std::size_t(2 * planes * plane), Real(0));
    for (int s = 0; s < d.size(); ++s) {
      Engine<Real>& engine = *run.engines[s];
      const CpmlView<Real> view = engine.cpml();
      const CpmlFace<Real>* f = local_face(view, face);
      if (!f) continue;
      if (psi_plane(*f) != plane) throw std::logic_error("checkpoint: a CPML face's planes differ between slabs");
      const NodeRange own = d.owned_nodes(s);
      for (Index k = std::max(own.k0, first); k < std::min(own.k1, first + planes); ++k) {
        const Index local = d.local_k(s, k);
        if (local < f->k0 || local >= f->k0 + f->nk) continue;
        for (int phase = 0; phase < 2; ++phase)
          engine.read_memory(f->psi + phase * 2 * f->box() + (local - f->k0) * plane, plane,
                             global.data() + (phase * planes + (k - first)) * plane);
      }
    }
    out.write_psi(face, shape, std::span<const Real>(global));
  }
  save_dispersion(run, out);

  if (run.probe_file) {
    out.begin_probes(run.probe_file->series(), run.probe_file->samples());
    for (std::size_t s = 0; s < run.probe_file->series(); ++s)
      out.write_probe_series(s, run.probe_file->series_samples(s));
  } else if (run.probes) {
    std::size_t series = 0;
    for (const ProbeRecord& p : run.probes->probes) series += p.series.size();
    out.begin_probes(series, step);
    series = 0;
    for (const ProbeRecord& p : run.probes->probes)
      for (const auto& samples : p.series) out.write_probe_series(series++, samples);
  }

  for (std::size_t i = 0; i < run.snapshots.size(); ++i) {
    const SnapshotWriter& writer = *run.snapshots[i];
    const auto& dims = writer.geometry().dims;
    for (const auto& [at, components] : writer.written())
      for (Component c : components)
        out.write_snapshot(m.deck.snapshots[i].name, at, c, writer.read(at, c), {dims[2], dims[1], dims[0]});
  }
  if (run.energy && run.config.energy_every > 0) out.write_energy(*run.energy);
  out.commit();
}

template <typename Real>
Index restore_checkpoint(const CheckpointedRun<Real>& run, const CheckpointReader& checkpoint) {
  const Model& m = run.model;
  const SlabDecomposition& d = run.decomposition;
  const CheckpointHeader& h = checkpoint.header();
  check_checkpoint_fits(checkpoint, m.deck, run.config.precision_bits);
  std::size_t series = 0;
  for (const auto& p : m.probes) series += p.components.size();
  if (h.energy_every != run.config.energy_every)
    throw CheckpointError("checkpoint " + checkpoint.path().string() + " was written with the energy recorded every " +
                          std::to_string(h.energy_every) + " steps, the run records it every " +
                          std::to_string(run.config.energy_every));

  // The fields: each slab's whole array, its ghost planes included, from the global nodes (the
  // planes outside the grid and the pads stay zero, as in a run that starts).
  const std::size_t row = std::size_t(m.grid.nx + 1), plane = row * std::size_t(m.grid.ny + 1);
  std::vector<Real> host;
  for (Component c : kAllComponents) {
    const std::vector<Real> global = read_field<Real>(checkpoint, c);
    for (int s = 0; s < d.size(); ++s) {
      Engine<Real>& engine = *run.engines[s];
      const PlaneRange planes = d.array_planes(s);
      NodeRange range = all_nodes(m.grid);
      range.k0 = std::max<Index>(planes.begin, 0);
      range.k1 = std::min<Index>(planes.end, m.grid.nz + 1);
      host.assign(std::size_t(engine.layout().elements()), Real(0));
      insert<Real>(std::span<const Real>(global).subspan(std::size_t(range.k0) * plane, range.count()), host,
                   engine.layout(), d.to_local(s, range));
      engine.upload(c, host);
    }
  }
  for (const auto& [face, shape] : cpml_global_shapes(m.deck)) {
    const std::vector<Real> global = read_psi<Real>(checkpoint, face);
    const Index planes = shape[0], values = 2 * shape[1] * shape[2], first = first_global_plane(m.deck, face);
    for (int s = 0; s < d.size(); ++s) {
      Engine<Real>& engine = *run.engines[s];
      const CpmlView<Real> view = engine.cpml();
      const CpmlFace<Real>* f = local_face(view, face);
      if (!f) continue;
      for (Index local = f->k0; local < f->k0 + f->nk; ++local) {
        const Index k = d.global_k(s, local);
        if (k < first || k >= first + planes) continue;
        for (int phase = 0; phase < 2; ++phase)
          engine.write_memory(f->psi + phase * 2 * f->box() + (local - f->k0) * values, values,
                              global.data() + (phase * planes + (k - first)) * values);
      }
    }
  }
  restore_dispersion(run, checkpoint);
  for (int s = 0; s < d.size(); ++s) run.engines[s]->synchronize();

  // The probe series so far, a block of steps at a time.
  if (series > 0) {
    const Index block = run.probe_file ? run.probe_file->chunk() : h.step;
    std::vector<double> samples(series);
    for (Index first = 0; first < h.step; first += block) {
      const Index count = std::min(block, h.step - first);
      const std::vector<double> values = checkpoint.read_probe_block(first, count);
      for (Index t = 0; t < count; ++t) {
        for (std::size_t s = 0; s < series; ++s) samples[s] = values[s * std::size_t(count) + std::size_t(t)];
        if (run.probe_file) {
          run.probe_file->append(samples);
          continue;
        }
        std::size_t at = 0;
        for (ProbeRecord& p : run.probes->probes)
          for (auto& one : p.series) one.push_back(samples[at++]);
      }
    }
  }
  for (std::size_t i = 0; i < run.snapshots.size(); ++i) {
    const std::string& name = m.deck.snapshots[i].name;
    for (const auto& [at, components] : checkpoint.snapshot_steps(name))
      for (Component c : components) {
        const std::vector<double> values = checkpoint.read_snapshot(name, at, c);
        try {
          run.snapshots[i]->write(at, c, std::span<const double>(values));
        } catch (const std::invalid_argument& e) {  // a shape or a component the deck's snapshot does not have
          throw CheckpointError("checkpoint " + checkpoint.path().string() + ": " + e.what());
        }
      }
  }
  if (run.energy) *run.energy = checkpoint.read_energy();
  return h.step;
}

template void save_checkpoint<float>(const CheckpointedRun<float>&, Index);
template void save_checkpoint<double>(const CheckpointedRun<double>&, Index);
template Index restore_checkpoint<float>(const CheckpointedRun<float>&, const CheckpointReader&);
template Index restore_checkpoint<double>(const CheckpointedRun<double>&, const CheckpointReader&);

}  // namespace yeex
