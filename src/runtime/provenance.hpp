// Where a result came from: version, git commit, compiler, CUDA runtime/driver, GPUs and their
// topology (src/runtime/topology.hpp), host.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace yeex {

nlohmann::json provenance();
// The YEEX_ and NCCL_ environment variables set in this process, name -> value (provenance's
// "environment"): each overrides a measured default or the library's behaviour, so a number
// compares only with numbers taken under the same ones.
nlohmann::json tuning_environment();
// The same as one line, "NAME=VALUE NAME=VALUE", or "" when none is set.
std::string tuning_environment_line();
// ISO-8601 UTC time of now.
std::string utc_now();

}  // namespace yeex
