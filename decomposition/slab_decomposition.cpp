#include "decomposition/slab_decomposition.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace yeex {
namespace {

void validate(const GridShape& grid, int subdomains, Index halo_depth) {
  using std::to_string;
  if (grid.nx < 1 || grid.ny < 1 || grid.nz < 1)
    throw std::invalid_argument("cannot decompose a grid of " + to_string(grid.nx) + " x " + to_string(grid.ny) +
                                " x " + to_string(grid.nz) + " cells: every axis needs at least one cell");
  if (subdomains < 1)
    throw std::invalid_argument("the number of subdomains must be at least 1 (got " + to_string(subdomains) + ")");
  if (halo_depth < 1)
    throw std::invalid_argument("halo depth R must be at least 1 (got " + to_string(halo_depth) + ")");
  if (subdomains > grid.nz)
    throw std::invalid_argument("a grid of " + to_string(grid.nz) + " cells along z cannot be split into " +
                                to_string(subdomains) + " slabs: every slab needs at least one cell plane");
  const Index thinnest = grid.nz / subdomains;
  if (subdomains > 1 && halo_depth > thinnest)  // a single domain has no neighbour to supply planes
    throw std::invalid_argument("halo depth R=" + to_string(halo_depth) + " is larger than the thinnest slab (" +
                                to_string(thinnest) + " planes): nz=" + to_string(grid.nz) + " split into " +
                                to_string(subdomains) + " slabs, and each neighbour must supply R planes it owns; " +
                                "use fewer subdomains or a smaller halo depth");
}

}  // namespace

SlabDecomposition::SlabDecomposition(const GridShape& grid, int subdomains, Index halo_depth)
    : grid_(grid), halo_depth_(halo_depth) {
  validate(grid, subdomains, halo_depth);
  const Index base = grid.nz / subdomains, extra = grid.nz % subdomains;
  Index k = 0;
  for (int s = 0; s < subdomains; ++s) {
    SlabSubdomain d;
    d.k_begin = k;
    d.k_end = k + base + (s < extra ? 1 : 0);
    d.stored_planes = d.owned_planes() + (s == subdomains - 1 ? 1 : 0);
    d.ghost = halo_depth;
    d.lower = s > 0 ? s - 1 : kNoNeighbour;
    d.upper = s < subdomains - 1 ? s + 1 : kNoNeighbour;
    subdomains_.push_back(d);
    k = d.k_end;
  }
}

NodeRange SlabDecomposition::owned_update_range(int s) const {
  const SlabSubdomain& d = subdomain(s);
  return {0, grid_.nx, 0, grid_.ny, d.k_begin, d.k_end};
}

NodeRange SlabDecomposition::owned_nodes(int s) const {
  const SlabSubdomain& d = subdomain(s);
  return {0, grid_.nx + 1, 0, grid_.ny + 1, d.k_begin, d.k_begin + d.stored_planes};
}

PlaneRange SlabDecomposition::array_planes(int s) const {
  const SlabSubdomain& d = subdomain(s);
  return {d.k_begin - d.ghost, d.k_begin + d.stored_planes + d.ghost};
}

NodeRange SlabDecomposition::to_local(int s, const NodeRange& global) const {
  NodeRange local = global;
  local.k0 = local_k(s, global.k0);
  local.k1 = local_k(s, global.k1);
  return local;
}

std::vector<int> spread_slabs(const std::vector<int>& gpus, int slabs) {
  const int count = static_cast<int>(gpus.size());
  if (count < 1) throw std::invalid_argument("no GPU to spread the slabs over");
  if (slabs < count)
    throw std::invalid_argument(std::to_string(slabs) + " slab(s) over " + std::to_string(count) +
                                " GPUs: every GPU needs at least one slab");
  std::vector<int> devices;
  for (int g = 0; g < count; ++g) devices.insert(devices.end(), slabs / count + (g < slabs % count ? 1 : 0), gpus[g]);
  return devices;
}

int most_slabs_per_gpu(const std::vector<int>& devices) {
  int most = 0;
  for (int d : devices) most = std::max(most, static_cast<int>(std::count(devices.begin(), devices.end(), d)));
  return most;
}

}  // namespace yeex
