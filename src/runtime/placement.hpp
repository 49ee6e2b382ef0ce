// Where the slabs and their threads go: the order of the slab chain's GPUs (slab s on the s-th GPU,
// slab s exchanging with s - 1 and s + 1 only) and the CPUs each GPU's host thread runs on.
//
// Order: the chain crosses N - 1 links, and a synchronous step waits for the slowest of them, so
// the order chosen maximises the slowest neighbour link, then the sum of the links, then keeps the
// order given (an NVSwitch box, where every link is equal, keeps 0, 1, 2, ...). Exhaustive up to
// kExhaustiveChainGpus GPUs; above, greedy chains from every start (nearest best link next).
// A link's score is its measured bandwidth where one is known, else its type ranked (link_score).
//
// Pinning: each member of a ThreadTeam is pinned to the CPUs local to its GPU's PCI device (sysfs
// local_cpulist, Topology::gpus[i].cpu_affinity), so that host-staged copies and kernel launches
// run from the GPU's own NUMA node. The plan is process-wide (set_thread_pinning) because the
// solver builds its team from the run's device list; a team whose size the plan does not cover
// is not pinned.
#pragma once

#include <string>
#include <vector>

#include "src/runtime/topology.hpp"

namespace yeex {

inline constexpr int kExhaustiveChainGpus = 8;

// A link type as `nvidia-smi topo -m` names it, ranked: NV# 1000 + 10 x links, PIX 400, PXB 300,
// PHB 200, NODE 150, SYS 100; "X", "?" and anything else 0 (unknown links are all equal).
double link_score(const std::string& link);
// Score matrix [i][j] of a topology's GPUs (i, j index Topology::gpus), symmetric: the smaller of
// the two directions.
std::vector<std::vector<double>> link_scores(const Topology& topology);

// The chain order of GPUs 0..n-1 of a symmetric score matrix (indices into it), as above.
std::vector<int> best_chain(const std::vector<std::vector<double>>& scores);
// The slowest neighbour link of a chain (infinity for fewer than 2 GPUs).
double slowest_link(const std::vector<std::vector<double>>& scores, const std::vector<int>& chain);

// The topology's GPUs (CUDA ordinals) in chain order; `topology.gpus` order when it has fewer
// than 3 GPUs or no known link.
std::vector<int> order_devices(const Topology& topology);

// The link under each slab boundary of `devices` (slab s on devices[s]): devices.size() - 1
// entries, "?" where the topology does not know the pair, "same GPU" for two slabs on one GPU.
std::vector<std::string> boundary_links(const Topology& topology, const std::vector<int>& devices);

// ---- thread pinning ----

// The CPUs local to each of `devices` (one entry per device, empty where unknown).
std::vector<std::vector<int>> local_cpus(const Topology& topology, const std::vector<int>& devices);
// The process's pinning plan: member m of a team of up to cpus.size() members is pinned to
// cpus[m] (an empty list: not pinned). An empty plan pins nothing (--no-pin, the host engine).
void set_thread_pinning(std::vector<std::vector<int>> cpus);
std::vector<std::vector<int>> thread_pinning();
// Pins the calling thread to `cpus`; false (and nothing changed) when empty or refused.
bool pin_current_thread(const std::vector<int>& cpus);
// The CPUs the calling thread may run on.
std::vector<int> current_thread_cpus();

}  // namespace yeex
