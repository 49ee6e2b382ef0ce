#include "src/runtime/provenance.hpp"

#include <unistd.h>

#include <ctime>
#include <thread>

#include "src/runtime/build_info.hpp"
#if YEEX_HAVE_CUDA
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

#if YEEX_HAVE_CUDA
namespace {

// The GPU pairs as far as the CUDA runtime tells: peer access, the driver's P2P performance
// rank (0 = best), native atomics. Rows: from, columns: to.
nlohmann::json gpu_link_matrix() {
  const int n = cuda_device_count();
  const auto matrix = [&](cudaDeviceP2PAttr attr) {
    nlohmann::json m = nlohmann::json::array();
    for (int a = 0; a < n; ++a) {
      nlohmann::json row = nlohmann::json::array();
      for (int b = 0; b < n; ++b) {
        int value = -1;
        if (a != b && cudaDeviceGetP2PAttribute(&value, attr, a, b) != cudaSuccess) {
          cudaGetLastError();
          value = -1;
        }
        row.push_back(value);
      }
      m.push_back(row);
    }
    return m;
  };
  return {{"peer_access", matrix(cudaDevP2PAttrAccessSupported)},
          {"performance_rank", matrix(cudaDevP2PAttrPerformanceRank)},
          {"native_atomics", matrix(cudaDevP2PAttrNativeAtomicSupported)},
          {"definition", "rows: from GPU, columns: to GPU; -1 on the diagonal or where the runtime does not say"}};
}

}  // namespace
#endif

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
  p["gpu_links"] = gpu_link_matrix();
#else
  p["cuda_runtime"] = "not built";
  p["gpus"] = nlohmann::json::array();
#endif
  return p;
}

}  // namespace yeex
