// The time loop of one run: H sweep, E sweep, sources, probes, snapshots, progress; at the end
// the field checksum. Files go to RunConfig::output_dir, each written atomically.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/probe_writer.hpp"
#include "src/solver/model.hpp"

namespace yeex {

struct RunConfig {
  std::string engine = "host";
  int precision_bits = 32;  // 32 or 64
  int device = 0;
  bool progress = false;    // progress line with ETA on stderr
  std::optional<std::filesystem::path> output_dir;  // unset: write no files
  Index probe_slots = 1024;  // probe samples buffered on the device between fetches
};

struct RunResult {
  std::string engine;
  int precision_bits = 32;
  Index steps = 0;
  Index cells = 0;
  double seconds_setup = 0;    // model to engine (allocation, upload)
  double seconds_stepping = 0;  // the time loop without output
  double seconds_output = 0;    // probe fetches, snapshots, final download and checksum
  double gcells_per_second = 0;  // cells * steps / seconds_stepping / 1e9
  std::array<std::uint64_t, kComponentCount> component_checksums{};
  std::uint64_t checksum = 0;
  ProbeFile probes;
  std::vector<std::filesystem::path> files;  // written, final names
};

// Runs the model; throws std::runtime_error on a numerical blow-up (NaN/Inf: step and node).
RunResult run_model(const Model& model, const RunConfig& config);

// Bytes of memory a run of this deck needs on its engine (fields, classes, buffers); cheap, so
// it can refuse a deck before the model is built.
std::size_t estimate_engine_bytes(const Deck& deck, int precision_bits);

}  // namespace yeex
