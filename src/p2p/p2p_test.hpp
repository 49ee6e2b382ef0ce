// The one interface every yeex-p2p test implements, and the registry that names them.
// A test is one small file (src/p2p/<name>.cu); the timing, verification and pair loops it
// uses live once in src/p2p/harness.hpp (and, for the NCCL tests, src/p2p/nccl_harness.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/p2p/report.hpp"
#include "src/runtime/topology.hpp"

namespace yeex::p2p {

// The GPUs the user selected (--devices, default all), in that order: their topology (shared with
// the solver, src/runtime/topology.hpp) and their memory.
struct Machine {
  Topology topology;  // topology.gpus[i].device is the CUDA ordinal
  struct Memory {
    std::size_t free_bytes = 0, total_bytes = 0;
  };
  std::vector<Memory> memory;  // [i] of topology.gpus[i]
  std::size_t gpu_count() const { return topology.gpus.size(); }
  int device(std::size_t i) const { return topology.gpus[i].device; }
};

struct P2POptions {
  std::size_t bytes = std::size_t{64} << 20;  // --size
  std::size_t sweep_min = 4;                  // --sweep MIN:MAX
  std::size_t sweep_max = std::size_t{256} << 20;
  int repeats = 7;  // timed repeats after one warm-up; the median is reported
};

// A transferred byte differed from the pattern written at the source.
class VerificationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class P2PTest {
 public:
  virtual ~P2PTest() = default;
  // Empty when the test can run on `machine`, otherwise why not ("needs 2 GPUs, 1 selected").
  virtual std::string unavailable(const Machine& machine) const = 0;
  // Measures and verifies every transfer; throws VerificationError or CudaError.
  virtual TestResult run(const Machine& machine, const P2POptions& options) const = 0;
};

// Name and one-line description live in the registry entry rather than in the class so that a
// build without CUDA (where the test classes are not compiled) still lists every test.
struct P2PTestEntry {
  std::string name;
  std::string description;
  std::unique_ptr<P2PTest> (*make)();  // nullptr in a build without CUDA (or NCCL, for needs_nccl)
  bool needs_nccl = false;
  // Why the test cannot run here; empty when it can.
  std::string unavailable(const Machine& machine) const;
};

const std::vector<P2PTestEntry>& p2p_tests();
std::vector<std::string> p2p_test_names();

// Factories, one per test file (compiled with CUDA only).
std::unique_ptr<P2PTest> make_ce_unidir_test();
std::unique_ptr<P2PTest> make_ce_bidir_test();
std::unique_ptr<P2PTest> make_sm_copy_test();
std::unique_ptr<P2PTest> make_host_staged_test();
std::unique_ptr<P2PTest> make_latency_test();
std::unique_ptr<P2PTest> make_pingpong_test();
std::unique_ptr<P2PTest> make_sweep_test();
// NCCL builds only.
std::unique_ptr<P2PTest> make_nccl_pairs_test();
std::unique_ptr<P2PTest> make_nccl_ring_test();

// Number of visible CUDA devices (0 without a driver, a GPU, or CUDA in the build).
int visible_gpu_count();
// The topology (detect_topology) and the free memory of `devices`.
Machine detect_machine(const std::vector<int>& devices);

}  // namespace yeex::p2p
