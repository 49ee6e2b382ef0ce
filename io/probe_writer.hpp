// Probe time series -> one HDF5 file (probes.h5).
//
// Layout: root attributes format, title, dt (s), steps, cell_size (m), time_units "s", e_units "V/m",
// h_units "A/m";
// one group /probes/NAME per probe with attributes position (m, as requested), node (i,j,k),
// component_positions (m, each component's own staggered location); one 1-D dataset per
// component (Ex .. Hz) of length steps, value at step n = field after step n (E at (n+1) dt,
// H at (n+1/2) dt), with attributes units and time_offset.
//
// A run writes the file as it goes (ProbeWriter): the series are stored in chunks, appended every
// chunk of steps, so memory holds one chunk per series whatever the run's length.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "decomposition/grid.hpp"
#include "io/deck.hpp"

namespace yeex {

// The probe file's name in the output directory (a snapshot may not take its stem: io/deck.cpp).
inline constexpr std::string_view kProbeFileName = "probes.h5";

struct ProbeRecord {
  std::string name;
  Vec3 position{};              // metres, as in the deck
  std::array<Index, 3> node{};  // node the components are read at
  std::vector<Component> components;
  std::vector<std::vector<double>> series;  // [component][step]
};

struct ProbeFile {
  std::string title;
  double dt = 0.0;
  Index steps = 0;
  Vec3 cell_size{};
  std::vector<ProbeRecord> probes;
};

// probes.h5 written while a run goes, then renamed into place (AtomicFile).
class ProbeWriter {
 public:
  // `header`: title, dt, steps, cell size and the probes (their series are not used). `chunk`:
  // samples of a series held before they are written; 0 chooses (kProbeChunk, fewer for very many
  // series, never more than the steps). Throws std::invalid_argument for a probe name HDF5
  // cannot take, std::runtime_error when the file cannot be written.
  ProbeWriter(std::filesystem::path path, const ProbeFile& header, Index chunk = 0);
  ~ProbeWriter();  // without commit(): removes the temporary file
  ProbeWriter(const ProbeWriter&) = delete;
  ProbeWriter& operator=(const ProbeWriter&) = delete;

  // The samples after the next step: one per series, probe by probe, each probe's components in
  // its order. Throws std::invalid_argument for another count or a step beyond `steps`.
  void append(std::span<const double> samples);
  // Writes what is held, closes the file and renames it into place; throws unless `steps`
  // samples came.
  void commit();

  std::size_t series() const;  // components summed over the probes
  Index samples() const;       // samples a series has so far (written and held)
  // Series s's samples so far (a checkpoint's copy; src/solver/checkpointing.cpp).
  std::vector<double> series_samples(std::size_t s) const;
  Index chunk() const;  // samples per series held between writes
  const std::filesystem::path& path() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Samples of a series a ProbeWriter holds between writes, when the series are not too many.
inline constexpr Index kProbeChunk = 4096;
// The values ProbeWriter holds per series between writes: kProbeChunk, or fewer so that all
// `series` together hold at most 8 Mi values (10^4 series: about 800 samples each, 64 MiB), but at
// least 64; never more than the steps.
Index probe_chunk(std::size_t series, Index steps);

// Writes the file atomically (temporary name, then rename), through a ProbeWriter. Throws
// std::runtime_error, std::invalid_argument for series of another length than `steps`.
void write_probe_file(const std::filesystem::path& path, const ProbeFile& file);
// Reads a file written by write_probe_file (for tests and tools). Throws std::runtime_error.
ProbeFile read_probe_file(const std::filesystem::path& path);

}  // namespace yeex
