#include "src/app/run_report.hpp"

#include <algorithm>
#include <cstdio>

#include "io/probe_writer.hpp"
#include "kernels/field_layout.hpp"
#include "src/app/commands.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/placement.hpp"
#include "src/runtime/provenance.hpp"
#include "src/solver/engines.hpp"
#include "src/solver/field_stats.hpp"

namespace yeex {

nlohmann::json run_report(const Model& model, const RunResult& r, const std::string& command_line) {
  nlohmann::json j;
  j["format"] = "yeex-run-1";
  j["command"] = command_line;
  j["deck"] = model.deck.to_json();
  j["provenance"] = provenance();
  j["run"] = {{"engine", r.engine},
              {"engine_description", engine_description(r.engine)},
              {"engine_choices", r.engine_choices},
              {"exchange", r.exchange},
              {"exchange_choices", r.exchange_choices},
              {"subdomains", r.subdomains},
              {"halo_depth", r.halo_depth},
              {"devices", r.devices},
              {"precision", r.precision_bits == 64 ? "f64" : "f32"},
              {"steps", r.steps},
              {"cells", r.cells},
              {"dt_s", model.dt},
              {"material_classes", model.classes.size()}};
  // The slab chain's order (run.devices, chosen by src/runtime/placement.hpp unless --devices gave
  // it) and the link under each boundary between neighbouring slabs.
  if (r.engine == "cuda" && r.devices.size() > 1)
    j["run"]["slab_boundary_links"] = boundary_links(detect_topology(), r.devices);
  j["timings_s"] = {{"setup", r.seconds_setup},
                    {"stepping", r.seconds_stepping},
                    {"compute", std::max(0.0, r.seconds_stepping - r.seconds_exchange - r.seconds_wait)},
                    {"exchange", r.seconds_exchange},
                    {"wait", r.seconds_wait},
                    {"output", r.seconds_output},
                    {"checks", r.seconds_checks},
                    {"per_step", r.steps ? r.seconds_stepping / r.steps : 0.0},
                    {"definitions",
                     {{"setup", "the model onto the engines: allocation, upload, the exchange backend"},
                      {"stepping", "the time loop without output and checks (host clock, every slab's work finished)"},
                      {"exchange, wait",
                       "the slowest slab's seconds moving halos and waiting at barriers for the other slabs; "
                       "synchronous backends only (0 where the exchange overlaps the sweeps)"},
                      {"compute", "stepping - exchange - wait"},
                      {"output", "probe fetches, snapshots, the final download and checksum"},
                      {"checks", "the NaN/Inf scans of the fields between chunks of steps (--check-every)"}}}};
  const double bytes = kBytesPerCellStep * (r.precision_bits / 32);
  j["performance"] = {
      {"gcells_per_s", r.gcells_per_second},
      {"effective_gb_per_s", r.gcells_per_second * bytes},
      {"definition", "Gcells/s = cells x steps / stepping time; effective GB/s = Gcells/s x " +
                         std::to_string(int(bytes)) + " B/cell/step (separate H and E sweeps, streaming minimum)"}};
  nlohmann::json sums;
  sums["fields"] = hex(r.checksum);
  for (Component c : kAllComponents) sums[std::string(component_name(c))] = hex(r.component_checksums[int(c)]);
  sums["definition"] =
      "FNV-1a 64, one round per node value (its raw 32 or 64 bits as one word, not bytes), k,j,i order; fields "
      "combines Ex..Hz";
  j["checksum"] = sums;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.files) files.push_back(f.filename().string());
  files.push_back(kRunReportName);
  j["files"] = files;
  return j;
}

void print_run_summary(const Model& model, const RunResult& r, const std::filesystem::path* out) {
  const auto& c = model.cell;
  std::printf("yeex: %s\n", model.deck.title.c_str());
  std::printf("  grid      %lld x %lld x %lld cells of %g x %g x %g mm, %lld steps, dt = %.4g ps\n",
              (long long)model.grid.nx, (long long)model.grid.ny, (long long)model.grid.nz, c[0] * 1e3, c[1] * 1e3,
              c[2] * 1e3, (long long)r.steps, model.dt * 1e12);
  std::printf("  engine    %s, %s, %d subdomain(s), exchange %s, halo depth %lld\n", r.engine.c_str(),
              r.precision_bits == 64 ? "float64" : "float32", r.subdomains, r.exchange.c_str(),
              (long long)r.halo_depth);
  if (!r.engine_choices.empty()) std::printf("  engine    %s: %s\n", r.engine.c_str(), r.engine_choices.c_str());
  if (!r.exchange_choices.empty()) std::printf("  exchange  %s: %s\n", r.exchange.c_str(), r.exchange_choices.c_str());
  std::printf("  stepping  %.3f s  %.3f Gcells/s  %.1f GB/s effective (%d B/cell/step)\n", r.seconds_stepping,
              r.gcells_per_second, r.gcells_per_second * kBytesPerCellStep * (r.precision_bits / 32),
              int(kBytesPerCellStep) * (r.precision_bits / 32));
  std::printf("  setup     %.3f s   output %.3f s   NaN/Inf checks %.3f s\n", r.seconds_setup, r.seconds_output,
              r.seconds_checks);
  std::printf("  checksum  %s\n", hex(r.checksum).c_str());
  if (out) std::printf("  output    %s/ (run.json + %zu files)\n", out->string().c_str(), r.files.size());
}

std::vector<std::string> run_output_files(const Deck& deck) {
  std::vector<std::string> files{kRunReportName};
  if (!deck.probes.empty()) files.emplace_back(kProbeFileName);
  for (const auto& snapshot : deck.snapshots) {
    files.push_back(snapshot.name + ".h5");
    files.push_back(snapshot.name + ".xdmf");
  }
  return files;
}

// The "mpi" section of run.json and bench JSON: the MPI library and every rank, host and GPU.
nlohmann::json mpi_report(const nlohmann::json& ranks) {
  return {{"ranks", ranks.size()},
          {"library", mpi_library_version()},
          {"cuda_aware", mpi_cuda_aware()},
          {"by_rank", ranks}};
}

// How a run's halos travel in MPI mode.
std::string halo_path(const RunConfig& config, const std::string& exchange) {
  if (exchange != "mpi") return "device memory (NCCL)";
  if (config.engine != "cuda") return "host memory";
  return mpi_cuda_aware() ? "device memory (CUDA-aware MPI)" : "staged through pinned host buffers";
}

}  // namespace yeex
