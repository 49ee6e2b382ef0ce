// The cuda engine: hand-written kernels, one thread per node, around kernels/yee_stencil.hpp.
// This header is plain C++ so that code without CUDA can include it.
#pragma once

#include <memory>
#include <string>

#include "kernels/engine.hpp"

namespace yeex {

template <typename Real>
std::unique_ptr<Engine<Real>> make_cuda_engine(const EngineSetup<Real>& setup);

// Number of usable CUDA devices (0 when there is no driver or no GPU: never throws).
int cuda_device_count();
std::string cuda_device_name(int device);
// Free and total device memory in bytes.
void cuda_memory_info(int device, std::size_t& free_bytes, std::size_t& total_bytes);
// Device-to-device copy bandwidth, GB/s counting bytes read plus bytes written (median of repeats).
double measure_device_copy_bandwidth(int device, std::size_t bytes);
// Runtime and driver versions as "13.0".
std::string cuda_runtime_version();
std::string cuda_driver_version();

}  // namespace yeex
