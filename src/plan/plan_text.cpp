// The plan as text (--dry-run) and as JSON (--dry-run --json).
#include <cstdio>

#include "src/plan/run_plan.hpp"

namespace yeex {
namespace {

std::string printf_string(const char* format, auto... values) {
  char line[512];
  std::snprintf(line, sizeof line, format, values...);
  return line;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// MiB below a GiB, so that a small model's parts do not all read 0.00 GiB.
std::string size_text(std::size_t bytes) {
  return bytes < (std::size_t(1) << 30) ? printf_string("%.1f MiB", bytes / double(1u << 20)) : gib(bytes);
}

nlohmann::json optional_bytes(const std::optional<std::size_t>& bytes) {
  return bytes ? nlohmann::json(*bytes) : nlohmann::json(nullptr);
}

}  // namespace

std::string plan_text(const RunPlan& p, const MemoryLimits& limits) {
  const MemoryEstimate& m = p.memory;
  const bool cuda = p.engine == "cuda";
  std::string t = "yeex: plan of '" + p.title + "'; nothing run (--dry-run)\n";
  t += printf_string("  grid      %lld x %lld x %lld cells (%lld), dt %.6g s, %lld steps\n", (long long)p.grid.nx,
                     (long long)p.grid.ny, (long long)p.grid.nz, (long long)p.cells, p.dt, (long long)p.steps);
  t += "  engine    " + p.engine + ", " + (p.precision_bits == 64 ? "f64" : "f32") + ", " +
       (p.mode == "mpi" ? "MPI mode, " + std::to_string(p.processes) + " ranks" : std::string("threads mode")) +
       (cuda ? std::string(", peer access ") + (p.peer_access ? "on" : "off (--no-peer)") : "") + "\n";
  t += printf_string("  slabs     %zu, halo depth %lld\n", p.slabs.size(), (long long)p.halo_depth);
  for (std::size_t s = 0; s < p.slabs.size(); ++s) {
    const PlannedSlab& slab = p.slabs[s];
    t += printf_string("    slab %-3zu z planes [%lld, %lld)  %lld planes%s", s, (long long)slab.k_begin,
                       (long long)slab.k_end, (long long)(slab.k_end - slab.k_begin),
                       slab.stored_planes > slab.k_end - slab.k_begin ? " + the inert plane nz" : "");
    if (slab.device >= 0) t += printf_string(", GPU %d", slab.device);
    if (p.mode == "mpi") t += printf_string(", rank %d", slab.rank);
    t += "\n";
  }
  t += "  exchange  " + p.exchange.name + ": " + p.exchange.why + "\n";
  if (cuda)
    t += "  memory    per GPU " + size_text(m.device_total()) + ": fields " + size_text(m.device_fields) +
         ", sources " + size_text(m.device_sources) + ", CPML " + size_text(m.device_cpml) +
         (m.device_dispersion ? ", dispersive state " + size_text(m.device_dispersion) : std::string()) +
         ", probe buffers " + size_text(m.device_probes) + "\n";
  t += std::string(cuda ? "            " : "  memory    ") + "host " + size_text(m.host_total()) +
       (p.mode == "mpi" ? " a process, " + size_text(m.node_total()) + " a node" : std::string()) +
       (cuda ? ": engine set-ups " + size_text(m.host_setup) : ": engines " + size_text(m.host_engines)) +
       ", source samples " + size_text(m.host_sources) + ", probes " + size_text(m.host_probes) + ", staging " +
       size_text(m.host_staging) + (m.host_checkpoint ? ", checkpoint " + size_text(m.host_checkpoint) : "") + "\n";
  t += "            may use:";
  if (cuda) t += " GPU free " + (limits.device_free ? size_text(*limits.device_free) : std::string("unknown")) + ",";
  t += " available " + (limits.available ? size_text(*limits.available) : std::string("unknown"));
  if (limits.cgroup) t += ", cgroup " + size_text(*limits.cgroup);
  if (limits.address_space) t += ", RLIMIT_AS " + size_text(*limits.address_space);
  t += "\n";
  t += "  output    " + p.output_dir.string() + ": " + joined(p.output_files) + "\n";
  if (p.resume_file) t += "  resume    from " + p.resume_file->string() + "\n";
  if (p.checkpoint_file) {
    const CheckpointConfig& c = p.config.checkpoint;
    t += "  checkpoint " + p.checkpoint_file->string() + ", every " +
         (c.every_steps > 0 ? std::to_string(c.every_steps) + " steps" : printf_string("%g s", c.every_seconds)) +
         " (removed when the run completes)\n";
  }
  if (!p.force_removes.empty())
    t += printf_string("yeex: --force would remove the %zu file(s) of an earlier run from %s: ", p.force_removes.size(),
                       p.output_dir.string().c_str()) +
         joined(p.force_removes) + "\n";
  return t;
}

nlohmann::json plan_json(const RunPlan& p, const MemoryLimits& limits) {
  const MemoryEstimate& m = p.memory;
  nlohmann::json slabs = nlohmann::json::array();
  for (const PlannedSlab& s : p.slabs)
    slabs.push_back({{"z_planes", {s.k_begin, s.k_end}},
                     {"planes", s.k_end - s.k_begin},
                     {"stored_planes", s.stored_planes},
                     {"device", s.device >= 0 ? nlohmann::json(s.device) : nlohmann::json(nullptr)},
                     {"rank", s.rank}});
  return {
      {"format", "yeex-plan-1"},
      {"title", p.title},
      {"mode", p.mode},
      {"processes", p.processes},
      {"engine", p.engine},
      {"precision", p.precision_bits == 64 ? "f64" : "f32"},
      {"devices", p.devices},
      {"peer_access", p.peer_access},
      {"grid", {p.grid.nx, p.grid.ny, p.grid.nz}},
      {"cells", p.cells},
      {"dt_s", p.dt},
      {"steps", p.steps},
      {"halo_depth", p.halo_depth},
      {"slabs", slabs},
      {"exchange", {{"name", p.exchange.name}, {"named", p.exchange.named}, {"why", p.exchange.why}}},
      {"memory_bytes",
       {{"device",
         {{"fields", m.device_fields},
          {"sources", m.device_sources},
          {"cpml", m.device_cpml},
          {"dispersion", m.device_dispersion},
          {"probes", m.device_probes},
          {"reserve", m.device_reserve},
          {"total", m.device_total()}}},
        {"host",
         {{"engines", m.host_engines},
          {"setup", m.host_setup},
          {"sources", m.host_sources},
          {"probes", m.host_probes},
          {"staging", m.host_staging},
          {"checkpoint", m.host_checkpoint},
          {"total", m.host_total()},
          {"node_total", m.node_total()}}},
        {"limits",
         {{"device_free", optional_bytes(limits.device_free)},
          {"available", optional_bytes(limits.available)},
          {"cgroup", optional_bytes(limits.cgroup)},
          {"cgroup_file", limits.cgroup ? nlohmann::json(limits.cgroup_file) : nlohmann::json(nullptr)},
          {"address_space", optional_bytes(limits.address_space)}}}}},
      {"output", {{"folder", p.output_dir.string()}, {"files", p.output_files}, {"force_removes", p.force_removes}}},
      {"checkpoint",
       {{"file", p.checkpoint_file ? nlohmann::json(p.checkpoint_file->string()) : nlohmann::json(nullptr)},
        {"every_steps", p.config.checkpoint.every_steps},
        {"every_seconds", p.config.checkpoint.every_seconds},
        {"resume_from", p.resume_file ? nlohmann::json(p.resume_file->string()) : nlohmann::json(nullptr)}}}};
}

}  // namespace yeex
