// Field snapshots -> HDF5 + an XDMF sidecar that ParaView opens as a time series.
//
// One snapshot request NAME gives NAME.h5 and NAME.xdmf in the output folder. NAME.h5 holds
// /step_NNNNNNNN/COMPONENT datasets of shape (nz, ny, nx) (x fastest, as the solver stores them);
// the XDMF describes a 3DCoRectMesh of the sampled nodes (one node thick along the plane axis for
// a plane) and a Temporal collection over the steps. Values are node-centred: each component is
// written at its node, half a cell from its true staggered position (its `stagger` attribute).
// Both files appear only on commit().
//
// Attributes, in the style of probes.h5 (io/probe_writer.hpp):
//   /            format "yeex-snapshot-1", dt (s), cell_size (m, x y z), origin (m, x y z: the
//                position of node (0,0,0) of every dataset), plane_axis ("x", "y", "z" or
//                "none" for a volume), time_units "s", e_units "V/m", h_units "A/m"
//   /step_N      step (steps done), time (s: n dt, the time of E; the XDMF's Time Value)
//   /step_N/C    units ("V/m" or "A/m"), time (s: the component's own time after step n, E at
//                n dt, H at (n - 1/2) dt: H advances first in the leapfrog), stagger (m, x y z:
//                the component's true position minus its node's)
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "decomposition/grid.hpp"
#include "io/deck.hpp"

namespace yeex {

struct SnapshotGeometry {
  std::array<Index, 3> dims{};    // nodes along x, y, z in each dataset
  Vec3 origin{};                  // metres, position of the first node
  Vec3 spacing{};                 // metres between nodes: the cell size
  double dt = 0;                  // seconds per step (> 0): gives each component's time
  std::optional<int> plane_axis;  // 0, 1, 2: a plane snapshot normal to x, y, z; empty: a volume
};

class SnapshotWriter {
 public:
  // `precision_bits` is 32 or 64: the type datasets are stored in.
  SnapshotWriter(std::filesystem::path directory, std::string name, SnapshotGeometry geometry,
                 std::vector<Component> components, int precision_bits);
  ~SnapshotWriter();  // without commit(): removes the temporary files
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;

  // The fields after `step` steps; data: dims[0]*dims[1]*dims[2] values, x fastest. Call once
  // per component per step.
  void write(Index step, Component component, std::span<const float> data);
  void write(Index step, Component component, std::span<const double> data);
  // Closes NAME.h5, writes NAME.xdmf, renames both into place.
  void commit();

  std::filesystem::path h5_path() const;
  std::filesystem::path xdmf_path() const;
  const SnapshotGeometry& geometry() const;

  // What was written so far, for a checkpoint's copy (src/solver/checkpointing.cpp): the steps
  // with their components in the order written, and one dataset back as double.
  std::vector<std::pair<Index, std::vector<Component>>> written() const;
  std::vector<double> read(Index step, Component component) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Reads back one dataset (for tests and tools); values converted to double.
std::vector<double> read_snapshot_dataset(const std::filesystem::path& h5, Index step, Component component);

}  // namespace yeex
