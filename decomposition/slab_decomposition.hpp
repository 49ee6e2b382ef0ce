// The split of the global grid into z-slabs, one per subdomain (a GPU, or a partition of host
// memory).
//
// A single-domain run updates node planes [0, nz) and stores [0, nz]: plane nz is inert (see
// update_nodes in decomposition/grid.hpp). A SlabDecomposition cuts the update planes [0, nz)
// into N contiguous slabs in subdomain order, nz / N planes each and one more for the first
// nz % N, so the split depends on nothing but nz and N. Subdomain s updates its own planes
// [k_begin, k_end) and stores them plus, for the last subdomain, the inert plane nz: checksums
// and snapshots chained over the subdomains in order cover [0, nz] exactly once.
//
// Local arrays (kernels/field_layout.hpp, built by make_engine_setup(model, k_begin,
// stored_planes, ghost, ...)): local plane 0 is global plane k_begin, and `ghost` pad planes lie
// on each side, so the array holds global planes [k_begin - ghost, k_begin + stored_planes +
// ghost). Ghost planes facing a neighbour are filled by the halo exchange
// (decomposition/halo_plan.hpp); those outside the grid stay zero.
#pragma once

#include <vector>

#include "decomposition/grid.hpp"

namespace yeex {

inline constexpr int kNoNeighbour = -1;

// Half-open range [begin, end) of global z node planes.
struct PlaneRange {
  Index begin = 0, end = 0;

  Index count() const { return end - begin; }
  bool empty() const { return end <= begin; }
  bool contains(Index k) const { return k >= begin && k < end; }
  friend bool operator==(const PlaneRange&, const PlaneRange&) = default;
};

struct SlabSubdomain {
  Index k_begin = 0, k_end = 0;  // owned update planes [k_begin, k_end), global
  Index stored_planes = 0;       // k_end - k_begin, plus the inert plane nz for the last one
  Index ghost = 0;               // pad planes on each side of the local array (the halo depth)
  int lower = kNoNeighbour;      // subdomain below (smaller k), or kNoNeighbour at z = 0
  int upper = kNoNeighbour;      // subdomain above, or kNoNeighbour at z = nz

  Index owned_planes() const { return k_end - k_begin; }
};

class SlabDecomposition {
 public:
  // Splits `grid` into `subdomains` slabs with `halo_depth` ghost planes each side. Throws
  // std::invalid_argument when the split is impossible: fewer than one subdomain or halo plane,
  // more subdomains than cell planes, or (N > 1) a slab thinner than the halo: a neighbour
  // could not supply R planes from its own.
  SlabDecomposition(const GridShape& grid, int subdomains, Index halo_depth);

  const GridShape& grid() const { return grid_; }
  int size() const { return static_cast<int>(subdomains_.size()); }
  Index halo_depth() const { return halo_depth_; }
  const SlabSubdomain& subdomain(int s) const { return subdomains_.at(static_cast<std::size_t>(s)); }
  const std::vector<SlabSubdomain>& subdomains() const { return subdomains_; }

  // Global nodes subdomain s updates in a step without redundant work: [0,nx) x [0,ny) x [k_begin, k_end).
  NodeRange owned_update_range(int s) const;
  // Global nodes subdomain s stores as its own (checksums, snapshots, probes): [0,nx] x [0,ny] x stored planes.
  NodeRange owned_nodes(int s) const;
  // Global planes of subdomain s's local array, ghost planes included (some may lie outside the grid).
  PlaneRange array_planes(int s) const;

  // Plane index conversion for subdomain s; local k runs over [-ghost, stored_planes + ghost).
  Index local_k(int s, Index global_k) const { return global_k - subdomain(s).k_begin; }
  Index global_k(int s, Index local_k) const { return local_k + subdomain(s).k_begin; }
  // A global node range in subdomain s's local coordinates (only z shifts).
  NodeRange to_local(int s, const NodeRange& global) const;

 private:
  GridShape grid_;
  Index halo_depth_ = 1;
  std::vector<SlabSubdomain> subdomains_;
};

// The GPU of each of `slabs` z-slabs spread over `gpus` (slabs >= gpus.size() >= 1): contiguous
// groups in slab order, the first slabs % gpus.size() GPUs holding one slab more, so that
// neighbouring slabs share a GPU wherever they can. With as many slabs as GPUs, `gpus` itself.
// Throws std::invalid_argument for no GPU or fewer slabs than GPUs.
std::vector<int> spread_slabs(const std::vector<int>& gpus, int slabs);

// The most slabs any one GPU holds in `devices` (one entry per slab).
int most_slabs_per_gpu(const std::vector<int>& devices);

}  // namespace yeex
