// The YEEX_ environment variables yeex reads, all of them here: what a run may choose is a
// command-line or deck option, so only what belongs to the machine rather than to a run stays in
// the environment (today one variable: MPI's CUDA-awareness, which the MPI library, not the deck,
// decides). Bad values are refused, unknown YEEX_ names are named in a warning, and the variables
// yeex no longer reads point to the option that replaced them. OMP_NUM_THREADS, NCCL_* and the MPI
// launchers' variables are the libraries' own, read by them (and recorded in run.json).
#pragma once

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace yeex {

struct EnvironmentVariable {
  const char* name;
  const char* meaning;  // for the documentation and the messages
};

// Every YEEX_ variable yeex reads; each is a switch, 0 or 1.
inline const std::vector<EnvironmentVariable>& yeex_environment_variables() {
  static const std::vector<EnvironmentVariable> known{
      {"YEEX_MPI_CUDA_AWARE",
       "0: the mpi backend stages halos through host memory even where the MPI library is CUDA-aware; 1 (the "
       "default): device buffers where it is"},
  };
  return known;
}

// Variables earlier versions read, and what replaced them (shown in the warning).
inline std::string retired_yeex_variable(std::string_view name) {
  static const std::pair<const char*, const char*> retired[] = {
      {"YEEX_FIELD_SLOT_MIB", "--arena-unit"},
      {"YEEX_COOP_CALL_SOURCES", "--coop-form"},
      {"YEEX_GRAPH_STEPS", "--graph-steps"},
      {"YEEX_B2R_TRANSPORT", "--b2r-transport"},
      {"YEEX_FIELD_SLOT_LOG", "run.json's engine_choices"},
      {"YEEX_COOP_TUNE_LOG", "run.json's exchange_choices"},
  };
  for (const auto& [old, now] : retired)
    if (name == old) return now;
  return "";
}

// The problems with the YEEX_ variables of `environment` (a NAME=VALUE list ending in null, as
// `environ`): throws std::invalid_argument for a known variable with a value other than 0 or 1;
// returns a warning for each unknown YEEX_ name.
inline std::vector<std::string> check_yeex_environment(char** environment = environ) {
  std::vector<std::string> warnings;
  for (char** entry = environment; entry && *entry; ++entry) {
    const std::string_view text = *entry;
    if (text.rfind("YEEX_", 0) != 0) continue;
    const auto equals = text.find('=');
    const std::string name(text.substr(0, equals));
    const std::string value(equals == std::string_view::npos ? "" : text.substr(equals + 1));
    bool known = false;
    for (const EnvironmentVariable& v : yeex_environment_variables())
      if (name == v.name) known = true;
    if (known) {
      if (value != "0" && value != "1")
        throw std::invalid_argument("environment variable " + name + "='" + value + "': must be 0 or 1");
      continue;
    }
    const std::string replaced = retired_yeex_variable(name);
    warnings.push_back("environment variable " + name + " is not read by yeex" +
                       (replaced.empty() ? " (ignored)" : " (ignored; use " + replaced + ")"));
  }
  return warnings;
}

// A known switch's value (check_yeex_environment has refused anything but 0 and 1); nullopt where
// it is unset.
inline std::optional<bool> yeex_switch(const char* name) {
  const char* value = std::getenv(name);
  if (!value) return std::nullopt;
  return std::string(value) != "0";
}

}  // namespace yeex
