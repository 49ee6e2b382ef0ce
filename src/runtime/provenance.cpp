#include "src/runtime/provenance.hpp"

#include <unistd.h>

#include <ctime>
#include <thread>

#include "src/runtime/build_info.hpp"
#include "src/runtime/topology.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#if YEEX_HAVE_NCCL
#include <nccl.h>
#endif
#endif

namespace yeex {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

nlohmann::json tuning_environment() {
  nlohmann::json set = nlohmann::json::object();
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text(*entry);
    if (text.rfind("YEEX_", 0) != 0 && text.rfind("NCCL_", 0) != 0) continue;
    const std::size_t equals = text.find('=');
    set[text.substr(0, equals)] = equals == std::string::npos ? "" : text.substr(equals + 1);
  }
  return set;
}

std::string tuning_environment_line() {
  std::string line;
  const nlohmann::json set = tuning_environment();
  for (const auto& [name, value] : set.items())
    line += (line.empty() ? "" : " ") + name + "=" + value.get<std::string>();
  return line;
}

nlohmann::json provenance() {
  nlohmann::json p;
  p["yeex_version"] = kYeexVersion;
  p["git_commit"] = kGitCommit;
  p["compiler"] = kCompiler;
  p["build_type"] = kBuildType;
  p["cuda_build"] = kCudaBuild;
  char host[256] = "unknown";
  gethostname(host, sizeof host);
  p["host"] = host;
  p["cpu_threads"] = std::thread::hardware_concurrency();
  p["date_utc"] = utc_now();
#if YEEX_HAVE_CUDA
  p["cuda_runtime"] = cuda_runtime_version();
  p["cuda_driver"] = cuda_driver_version();
  nlohmann::json gpus = nlohmann::json::array();
  for (int d = 0; d < cuda_device_count(); ++d) gpus.push_back({{"index", d}, {"name", cuda_device_name(d)}});
  p["gpus"] = gpus;
#if YEEX_HAVE_NCCL
  int nccl = 0;
  p["nccl"] =
      ncclGetVersion(&nccl) == ncclSuccess
          ? std::to_string(nccl / 10000) + "." + std::to_string(nccl / 100 % 100) + "." + std::to_string(nccl % 100)
          : "unknown";
#else
  p["nccl"] = "not built";
#endif
#else
  p["cuda_runtime"] = "not built";
  p["gpus"] = nlohmann::json::array();
  p["nccl"] = "not built";
#endif
  p["topology"] = to_json(detect_topology());
  p["environment"] = tuning_environment();
  return p;
}

}  // namespace yeex
