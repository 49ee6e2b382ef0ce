// The cuda engine: hand-written kernels, one thread per node, around kernels/yee_stencil.hpp.
// This header is plain C++ so that code without CUDA can include it.
#pragma once

#include <memory>
#include <string>

#include "kernels/engine.hpp"

namespace yeex {

template <typename Real>
std::unique_ptr<Engine<Real>> make_cuda_engine(const EngineSetup<Real>& setup);

// Everything a kernel outside the engine needs to run the same update (the cooperative
// exchange backend's persistent kernel): device pointers, layout, sources, probes, stream.
template <typename Real>
struct CudaEngineView {
  FieldPointers<Real> fields;
  const std::uint8_t* material_class;
  const CellCoefficients<Real>* classes;
  FieldLayout layout;
  const PointSource* sources;
  int source_count;
  int source_rounds;           // number_rounds (kernels/engine.hpp): 1 unless sources share a node
  const Real* source_samples;  // [step][source]
  const ProbePoint* probes;
  int probe_count;
  Real* probe_buffer;          // [slot][probe]
  int device;
  void* stream;                // cudaStream_t of Lane::bulk
  CpmlView<Real> cpml;         // faces = 0 without CPML
};
// Throws std::invalid_argument unless `engine` is a cuda engine.
template <typename Real>
CudaEngineView<Real> cuda_engine_view(Engine<Real>& engine);

// Peer access between two GPUs: whether the driver allows it, and turning it on (both ways;
// idempotent).
bool can_access_peer(int a, int b);
void enable_peer_access(int a, int b);
// Peer access on or off between a and b (both ways; idempotent).
void set_peer_access(int a, int b, bool on);

// Page-locked host memory (fast, asynchronous device copies); free with free_pinned.
void* allocate_pinned(std::size_t bytes);
void free_pinned(void* p);

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
