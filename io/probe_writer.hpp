// Probe time series -> one HDF5 file (probes.h5).
//
// Layout: root attributes format, title, dt (s), steps, cell_size (m), time_units "s", e_units "V/m",
// h_units "A/m";
// one group /probes/NAME per probe with attributes position (m, as requested), node (i,j,k),
// component_positions (m, each component's own staggered location); one 1-D dataset per
// component (Ex .. Hz) of length steps, value at step n = field after step n (E at (n+1) dt,
// H at (n+1/2) dt), with attributes units and time_offset.
#pragma once

#include <array>
#include <filesystem>
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

// Writes the file atomically (temporary name, then rename). Throws std::runtime_error.
void write_probe_file(const std::filesystem::path& path, const ProbeFile& file);
// Reads a file written by write_probe_file (for tests and tools). Throws std::runtime_error.
ProbeFile read_probe_file(const std::filesystem::path& path);

}  // namespace yeex
