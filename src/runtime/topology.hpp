// The GPUs of this machine and how they are connected: the one topology detection of yeex,
// printed by `yeex-p2p topo` and recorded in every JSON file (run.json, `yeex bench --json` and
// `yeex-p2p --json`, through provenance()).
//
// Sources, each optional (a missing one leaves its fields "unknown", never an error):
//   - the CUDA runtime: GPU names, PCI bus ids, and per pair peer access, the driver's P2P
//     performance rank and native atomics (cudaDeviceGetP2PAttribute);
//   - sysfs: the NUMA node and the local CPUs of each GPU's PCI device
//     (/sys/bus/pci/devices/<bus id>/numa_node and local_cpulist);
//   - NVML, loaded at run time with dlopen("libnvidia-ml.so.1") (no build dependency): the link
//     type of each pair as `nvidia-smi topo -m` prints it (NV#, PIX, PXB, PHB, NODE, SYS) and the
//     number of active NVLinks per GPU.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "src/runtime/labelled_matrix.hpp"

namespace yeex {

struct GpuInfo {
  int device = 0;  // CUDA ordinal
  std::string name;
  std::string pci_bus_id;    // as CUDA gives it, e.g. "0000:1B:00.0"
  int numa_node = -1;        // NUMA node of the PCI device (sysfs), -1 = none or unknown
  std::string cpu_affinity;  // CPUs local to the PCI device (sysfs local_cpulist), "" = unknown
  int nvlinks = -1;          // active NVLinks (NVML), -1 = unknown
};

// One ordered pair of GPUs. -1 = unknown (or the diagonal).
struct GpuPair {
  std::string link = "?";     // "X" (self), "NV#", "PIX", "PXB", "PHB", "NODE", "SYS"; "?" = unknown
  int peer_access = -1;       // cudaDevP2PAttrAccessSupported
  int performance_rank = -1;  // cudaDevP2PAttrPerformanceRank, 0 = best
  int native_atomics = -1;    // cudaDevP2PAttrNativeAtomicSupported
};

struct Topology {
  std::vector<GpuInfo> gpus;
  // pairs[row][column]: rows are the destination (whose memory is accessed), columns the source,
  // as in yeex-p2p's dst x src matrices; the link type is symmetric.
  std::vector<std::vector<GpuPair>> pairs;
  std::string link_source;  // "NVML", or why the link types are unknown
  std::string note;         // why there is no GPU, when there is none
};

// The selected CUDA devices (empty: every visible one), in that order. Never throws for a
// missing driver, GPU or NVML: the topology then says so.
Topology detect_topology(const std::vector<int>& devices = {});

// GPU table, the `nvidia-smi topo -m`-style link matrix with its legend, then the pair matrices.
std::string format_topology(const Topology& topology);
// Peer access, performance rank and native atomics as dst x src matrices (also the heat maps).
std::vector<Matrix> topology_matrices(const Topology& topology);
nlohmann::json to_json(const Topology& topology);

// ---- helpers, exposed for the unit tests ----

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}; "" -> {}. Throws std::invalid_argument on anything else.
std::vector<int> parse_cpulist(const std::string& text);
// The inverse, ranges collapsed: {0,1,2,3,8} -> "0-3,8".
std::string format_cpulist(std::vector<int> cpus);
// A PCI address as sysfs names it (4-digit domain, lower case): "00000000:1B:00.0" and
// "0000:1b:00.0" -> "0000:1b:00.0". Throws std::invalid_argument when it is not one.
std::string sysfs_pci_address(const std::string& bus_id);
// NVML's nvmlGpuTopologyLevel_t (0, 10, ..., 50) as nvidia-smi names it; "?" for anything else.
std::string pcie_link_name(int nvml_topology_level);
// NVLinks that carry traffic between GPUs a and b (0: none, the path is PCIe). See topology.cpp.
int nvlinks_between(int direct_links, int switch_links_a, int switch_links_b, bool peer_access);

}  // namespace yeex
