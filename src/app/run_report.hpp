// What a run reports: run.json, the summary it prints, and MPI mode's section of run.json and
// bench JSON.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "src/solver/solver.hpp"

namespace yeex {

inline constexpr double kBytesPerCellStep = 72.0;  // f32 streaming minimum: 12 arrays read+written per step

// run.json of a finished run.
nlohmann::json run_report(const Model& model, const RunResult& r, const std::string& command_line);
// The run's summary on stdout; `out`: the output folder (null: none).
void print_run_summary(const Model& model, const RunResult& r, const std::filesystem::path* out);
// The "mpi" section of run.json and bench JSON: the MPI library and every rank, host and GPU.
nlohmann::json mpi_report(const nlohmann::json& ranks);
// How a run's halos travel in MPI mode.
std::string halo_path(const RunConfig& config, const std::string& exchange);

}  // namespace yeex
