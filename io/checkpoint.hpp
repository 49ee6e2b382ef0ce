// A run's checkpoint: one HDF5 file from which `yeex run --resume` continues, on any split,
// engine or GPU count, to the same bits as a run that was never stopped.
//
// Layout (format "yeex-checkpoint-1"; every dataset chunked with a Fletcher-32 checksum, so a
// damaged file is refused instead of resumed):
//   /                 attributes format, step (steps the fields have taken), steps (the run's),
//                     precision_bits, cells (nx ny nz), deck (the deck's text), deck_origin,
//                     run (JSON: the options that matter, the build), energy_every
//   /fields/C         every node of the grid, shape (nz+1, ny+1, nx+1), x fastest, precision_bits
//   /cpml/FACE        psi of one CPML face (x_min .. z_max) over the whole grid, shape
//                     (2, planes, nj, ni, 2): phase (E, H), the face's z planes (every node plane
//                     for an x or y face, its own for a z face), y, x, the node's psi pair
//   /dispersion       the pole state of dispersive nodes (kernels/dispersion.hpp), shape (arrays,
//                     entries): each state array over the grid's entries in global plane order
//   /probes/samples   the series so far, shape (series, step), probe by probe, components in order
//   /snapshots/NAME/step_N/C   the snapshots written so far, as in NAME.h5
//   /energy           (step, joules) pairs of the energy diagnostic so far
// Written as NAME.partial-PID, flushed to the disk, then renamed: a checkpoint is whole or absent.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "decomposition/grid.hpp"

namespace yeex {

inline constexpr std::string_view kCheckpointFileName = "checkpoint.h5";
// Where a run into `output_dir` keeps its checkpoint by default: OUTPUT.checkpoint beside it.
std::filesystem::path default_checkpoint_folder(const std::filesystem::path& output_dir);
// The checkpoint file named by `path`: the file itself, or checkpoint.h5 in a folder.
std::filesystem::path checkpoint_file_in(const std::filesystem::path& path);

// A checkpoint that cannot be resumed from (missing, damaged, another grid or precision): bad
// input, named with the file and the reason.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CheckpointHeader {
  Index step = 0;   // steps the fields have taken
  Index steps = 0;  // the run's steps
  int precision_bits = 32;
  std::array<Index, 3> cells{};  // grid.cells
  std::string deck_text;         // the deck as the run read it ("" for the built-in deck)
  std::string deck_origin;       // its file name, for messages
  std::string run_json;          // the options that matter and the build (JSON)
  Index energy_every = 0;
};

// Face names in the order of Deck::boundary: x_min, x_max, y_min, y_max, z_min, z_max.
std::string_view cpml_face_name(int face);

class CheckpointWriter {
 public:
  // Creates `final_path`'s temporary file (its folder must exist); throws std::runtime_error.
  CheckpointWriter(std::filesystem::path final_path, const CheckpointHeader& header);
  ~CheckpointWriter();  // without commit(): removes the temporary file
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  // A component over the whole grid: (nz+1)(ny+1)(nx+1) values, x fastest.
  void write_field(Component c, std::span<const float> values);
  void write_field(Component c, std::span<const double> values);
  // One CPML face's psi in its global form: shape (2, planes, nj, ni, 2).
  void write_psi(int face, const std::array<Index, 3>& planes_nj_ni, std::span<const float> values);
  void write_psi(int face, const std::array<Index, 3>& planes_nj_ni, std::span<const double> values);
  // The pole state: `arrays` arrays of `entries` values, one after the other.
  void write_dispersion(Index arrays, Index entries, std::span<const float> values);
  void write_dispersion(Index arrays, Index entries, std::span<const double> values);
  // `series` series of `steps` samples each; call write_probe_series once per series, in order.
  void begin_probes(std::size_t series, Index steps);
  void write_probe_series(std::size_t series, std::span<const double> samples);
  // One snapshot dataset, as the snapshot's file holds it.
  void write_snapshot(const std::string& name, Index step, Component c, std::span<const double> values,
                      const std::array<Index, 3>& zyx);
  void write_energy(const std::vector<std::pair<Index, double>>& samples);
  // Closes the file, flushes it to the disk and renames it into place (the folder flushed too).
  void commit();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

class CheckpointReader {
 public:
  // Opens a checkpoint file and reads its header; throws CheckpointError naming the file and why
  // it cannot be one (missing, truncated, not a yeex checkpoint).
  explicit CheckpointReader(const std::filesystem::path& file);
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader&) = delete;
  CheckpointReader& operator=(const CheckpointReader&) = delete;

  const CheckpointHeader& header() const;
  const std::filesystem::path& path() const;

  // Each throws CheckpointError for a missing dataset, another shape or a damaged one.
  std::vector<float> read_field_f32(Component c) const;
  std::vector<double> read_field_f64(Component c) const;
  bool has_psi(int face) const;
  std::array<Index, 3> psi_shape(int face) const;  // planes, nj, ni
  std::vector<float> read_psi_f32(int face) const;
  std::vector<double> read_psi_f64(int face) const;
  // The pole state's shape {arrays, entries} ({0, 0} when the file holds none) and values.
  std::array<Index, 2> dispersion_shape() const;
  std::vector<float> read_dispersion_f32() const;
  std::vector<double> read_dispersion_f64() const;
  std::size_t probe_series() const;  // 0 without probes
  // Samples [first, first + count) of every series: [series][count].
  std::vector<double> read_probe_block(Index first, Index count) const;
  // The snapshots' steps so far, in order, with the components each holds.
  std::vector<std::pair<Index, std::vector<Component>>> snapshot_steps(const std::string& name) const;
  std::vector<double> read_snapshot(const std::string& name, Index step, Component c) const;
  std::vector<std::pair<Index, double>> read_energy() const;

  // The structure a resume needs, checked against the run that resumes (grid, precision, CPML
  // faces and their shapes, probe series, snapshot names) before anything is written: throws
  // CheckpointError naming the first difference.
  void check_matches(const std::array<Index, 3>& cells, int precision_bits,
                     const std::vector<std::pair<int, std::array<Index, 3>>>& psi_faces, std::size_t probe_series,
                     const std::vector<std::string>& snapshots) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace yeex
