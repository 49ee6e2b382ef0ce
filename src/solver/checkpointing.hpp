// A run's state to and from a checkpoint (io/checkpoint.hpp), in a form that does not depend on
// the split: the fields over the whole grid in global node order, each CPML face's psi over the
// whole grid, the probe series and the snapshots so far, the energy samples. The time loop
// (solver.cpp) calls save_checkpoint after a chunk of steps and restore_checkpoint before the
// first; each slab's engine is read and written through its own interface (download, upload,
// cpml(), read_memory, write_memory), so any engine on any slab count restores any checkpoint.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "decomposition/slab_decomposition.hpp"
#include "io/checkpoint.hpp"
#include "io/probe_writer.hpp"
#include "io/snapshot_writer.hpp"
#include "kernels/engine.hpp"
#include "src/solver/model.hpp"
#include "src/solver/run_config.hpp"

namespace yeex {

// The parts of one run (threads mode: this process holds every slab) that a checkpoint holds.
template <typename Real>
struct CheckpointedRun {
  const Model& model;
  const RunConfig& config;
  const SlabDecomposition& decomposition;
  const std::vector<std::unique_ptr<Engine<Real>>>& engines;  // [slab]
  // Component c over the nodes of a global range, x fastest (the snapshots' gather).
  std::function<std::vector<Real>(Component, const NodeRange&)> gather;
  ProbeWriter* probe_file = nullptr;  // with an output folder; else the series are in `probes`
  ProbeFile* probes = nullptr;
  const std::vector<std::unique_ptr<SnapshotWriter>>& snapshots;
  std::vector<std::pair<Index, double>>* energy = nullptr;  // (step, joules) so far
};

// Every CPML face of a deck as a checkpoint holds it: (face 0..5, {planes, nj, ni}).
std::vector<std::pair<int, std::array<Index, 3>>> cpml_global_shapes(const Deck& deck);

// Throws CheckpointError unless `checkpoint` fits a run of `deck` in `precision_bits` (grid,
// precision, CPML faces, probe series, snapshots) and leaves it steps to run.
void check_checkpoint_fits(const CheckpointReader& checkpoint, const Deck& deck, int precision_bits);

// Writes the state after `step` steps to config.checkpoint.file, replacing the one there.
template <typename Real>
void save_checkpoint(const CheckpointedRun<Real>& run, Index step);

// Loads `checkpoint` into the engines, the probe file or series, the snapshot files and the
// energy samples; returns the step it holds. Throws CheckpointError for a checkpoint that does
// not fit the run.
template <typename Real>
Index restore_checkpoint(const CheckpointedRun<Real>& run, const CheckpointReader& checkpoint);

}  // namespace yeex
