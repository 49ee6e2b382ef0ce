// From a validated Deck to what an engine needs: the per-node material classes, their update
// coefficients, the source samples and the probe offsets.
//
// Material rule: every field component takes the material of the last geometry object (box,
// sphere or cylinder) that contains its own staggered position (points on the surface count as
// inside; an object reaching beyond the grid is clipped by it), free space elsewhere.
// A component is pinned to zero (all coefficients zero) where it is tangential to a PEC outer
// face, outside the grid, or (E only) inside a PEC material. The six per-component materials of
// a node form a tuple; the distinct tuples are the material classes, numbered in sorted order so
// that the numbering does not depend on threads or on the decomposition.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/slab_decomposition.hpp"
#include "io/deck.hpp"
#include "kernels/engine.hpp"
#include "physics/dispersion.hpp"
#include "src/solver/tfsf_setup.hpp"

namespace yeex {

// Material id per component; kPinned = coefficients zero.
using ClassKey = std::array<std::int16_t, kComponentCount>;
inline constexpr std::int16_t kPinned = -1;

struct ResolvedSource {
  std::string name;
  Component component = Component::Ez;
  std::array<Index, 3> node{};
  double coefficient = 0.0;     // cb(material) * amplitude * dl / dV
  std::vector<double> samples;  // W((n + 1/2) dt), n = 0..steps-1
};

struct ResolvedProbe {
  std::string name;
  Vec3 position{};
  std::array<Index, 3> node{};
  std::vector<Component> components;
};

struct Model {
  Deck deck;
  GridShape grid;
  Vec3 cell{};
  double dt = 0.0;
  Index steps = 0;
  std::vector<Material> materials;            // id 0 = free_space, 1 = pec, then the deck's materials
  std::vector<std::int16_t> object_material;  // material id of each deck.geometry object
  std::vector<ClassKey> classes;              // sorted; index = class number (0 is all pinned)
  std::vector<ResolvedSource> sources;
  std::vector<ResolvedProbe> probes;
  TfsfModel tfsf;  // the plane waves' corrections and incident table (src/solver/tfsf_setup.hpp)

  // Material class of node (i,j,k); i,j,k may lie outside the grid (then: all pinned).
  ClassKey class_key(Index i, Index j, Index k) const;
  // Node nearest to a position (metres), clamped to the grid.
  std::array<Index, 3> nearest_node(const Vec3& position) const;
  // Permittivity (component E) or permeability (H) in SI at a class, 0 when pinned.
  double constitutive(const ClassKey& key, Component c) const;
};

// Node nearest to a position (metres) on a grid of cells `cell`, clamped to the grid.
std::array<Index, 3> nearest_node(const GridShape& grid, const Vec3& cell, const Vec3& position);

// Resolves geometry into classes; throws DeckError (e.g. a source inside PEC, too many classes).
// `with_samples` false leaves every ResolvedSource::samples empty: the model's checks alone, in
// time and memory independent of the step count (a dry run).
Model build_model(const Deck& deck, bool with_samples = true);

// Engine input for the z-slab of global node planes [k_first, k_first + nodes_z) with `ghost`
// pad planes (a single-domain run: k_first 0, nodes_z nz+1, ghost 1). The engine injects the
// sources whose node plane lies in `sources` (default: its own planes; B+2R adds the ghost
// planes, see decomposition/halo_plan.hpp) and samples the probes of its own planes, in the
// model's order.
// A dispersive material's update in the engines' form and precision (kernels/dispersion.hpp).
template <typename Real>
PoleSet<Real> pole_set(const DispersiveUpdate& update);

template <typename Real>
EngineSetup<Real> make_engine_setup(const Model& model, Index k_first, Index nodes_z, Index ghost, Index probe_slots,
                                    std::optional<PlaneRange> sources = std::nullopt);

// Waveform value at time t (seconds); the formulas are in docs/decks.md ("Waveforms").
double waveform_value(WaveformKind kind, double frequency, double t);

}  // namespace yeex
