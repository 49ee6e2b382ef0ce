// The cuda engine: hand-written kernels, one thread per node, around kernels/yee_stencil.hpp.
// This header is plain C++ so that code without CUDA can include it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_engine_options.hpp"
#include "kernels/cuda/peer_counters.hpp"
#include "kernels/engine.hpp"

namespace yeex {

// Throws std::invalid_argument where the engine cannot run on setup.device (cuda_device_unsupported)
// or an option is out of range.
template <typename Real>
std::unique_ptr<Engine<Real>> make_cuda_engine(const EngineSetup<Real>& setup, const CudaEngineOptions& options = {});

// Why this build cannot run kernels on `device` (it holds no code for its architecture: the GPU,
// its compute capability, the build's architectures and the CMake line that builds for it), or ""
// where it can. Never throws.
std::string cuda_device_unsupported(int device);
// The CUDA architectures this build holds code for, as CMake lists them ("75;80;90").
std::string cuda_build_architectures();
// Multiprocessors of `device`.
int cuda_multiprocessor_count(int device);

// Everything a kernel outside the engine needs to run the same update (the cooperative
// exchange backend's persistent kernel): device pointers, layout, sources, probes, stream.
template <typename Real>
struct CudaEngineView {
  FieldPointers<Real> fields;
  const std::uint8_t* material_class;
  const CellCoefficients<Real>* classes;
  int class_count;
  FieldLayout layout;
  const PointSource* sources;
  int source_count;
  int source_rounds;           // number_rounds (kernels/engine.hpp): 1 unless sources share a node
  const Real* source_samples;  // [step][source]
  const ProbePoint* probes;
  int probe_count;
  Real* probe_buffer;  // [slot][probe]
  int device;
  void* stream;         // cudaStream_t of Lane::bulk
  CpmlView<Real> cpml;  // faces = 0 without CPML
};
// Throws std::invalid_argument unless `engine` is a cuda engine.
template <typename Real>
CudaEngineView<Real> cuda_engine_view(Engine<Real>& engine);
// The view's sources, copied into host memory (as the engine holds them: offsets, rounds).
template <typename Real>
std::vector<PointSource> host_sources(const CudaEngineView<Real>& view);
// The TF/SF nodes of a cuda engine (kernels/tfsf.hpp), H's then E's, at its offsets; throws
// std::invalid_argument unless `engine` is a cuda engine.
template <typename Real>
std::vector<TfsfNode> cuda_tfsf_nodes(Engine<Real>& engine);

// A pushing sweep (the graph backend's, src/exchange/border_first_exchange.hpp, "Pushing
// sweeps"): one sweep kernel whose first blocks take one boundary plane of the range, its last
// plane (`top`) or its first. Before that plane they wait for `wait`; after each node's update
// they store its `components` into the neighbour's arrays `to` (peer pointers) at the node's
// offset plus `shift`; once every one of them has stored (fenced at system scope), the last one
// signals `signal` and counts `wait` consumed. The other blocks sweep the rest of the range as the
// plain sweep does, in the same kernel, so that the plane travels while the bulk is swept. The
// plain kernel only: the engine refuses a pushing sweep of a run with CPML.
template <typename Real>
struct SweepPush {
  static constexpr int kMaxComponents = 3;
  bool top = false;
  int components = 0;
  Component component[kMaxComponents] = {};
  Real* to[kMaxComponents] = {};
  Index shift = 0;  // a node's element offset in `to`, less its own
  CounterWait wait;
  SignalTargets signal;
};
// Sweeps H (update_h) or E over `range` of a cuda engine as a pushing sweep, on Lane::bulk.
// Throws std::invalid_argument unless `engine` is a cuda engine without CPML.
template <typename Real>
void cuda_sweep_pushing(Engine<Real>& engine, bool update_h, const NodeRange& range, const SweepPush<Real>& push);

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
