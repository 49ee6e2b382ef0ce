// Where a result came from: version, git commit, compiler, CUDA runtime/driver, GPUs and their
// topology (src/runtime/topology.hpp), host.
#pragma once

#include <nlohmann/json.hpp>

namespace yeex {

nlohmann::json provenance();
// ISO-8601 UTC time of now.
std::string utc_now();

}  // namespace yeex
