// The one NCCL error check of the program (the nccl exchange backend and yeex-p2p's NCCL tests):
// a failed call throws with NCCL's message and its last error detail.
#pragma once

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace yeex {

inline void nccl_check(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  std::string message = std::string("NCCL error: ") + ncclGetErrorString(result) + " (" + call + ")";
  if (const char* detail = ncclGetLastError(nullptr); detail && *detail) message += ": " + std::string(detail);
  throw std::runtime_error(message);
}

}  // namespace yeex
