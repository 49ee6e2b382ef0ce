// The one CUDA error check: every runtime call goes through YEEX_CUDA, every launch is followed
// by YEEX_CUDA(cudaGetLastError()). Failures throw CudaError with the call and the location.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace yeex {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess)
    throw CudaError(std::string("CUDA error: ") + cudaGetErrorString(status) + " (" + call + " at " + file + ":" +
                    std::to_string(line) + ")");
}

}  // namespace yeex

#define YEEX_CUDA(call) ::yeex::cuda_check((call), #call, __FILE__, __LINE__)
