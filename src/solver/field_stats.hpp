// What the solver computes from whole field arrays on the host: the checksum of the raw bits,
// the discrete energy, the finiteness check and the extraction of snapshot boxes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kernels/field_layout.hpp"
#include "src/solver/model.hpp"

namespace yeex {

// FNV-1a over the bit patterns of the values, one value at a time (not bytes), in the order
// k, j, i of the nodes in `range`. Chaining: pass the previous hash as `seed` to hash several
// z-slabs in order, which gives the same result as hashing the whole grid at once.
inline constexpr std::uint64_t kChecksumSeed = 0xcbf29ce484222325ull;
template <typename Real>
std::uint64_t checksum(std::span<const Real> field, const FieldLayout& layout, const NodeRange& range,
                       std::uint64_t seed = kChecksumSeed);
// Combines per-component checksums into one.
std::uint64_t combine_checksums(const std::array<std::uint64_t, kComponentCount>& parts);
std::string hex(std::uint64_t value);

// First non-finite value in `range`, as its node indices.
template <typename Real>
std::optional<std::array<Index, 3>> find_non_finite(std::span<const Real> field, const FieldLayout& layout,
                                                    const NodeRange& range);

// The discrete energy conserved exactly by the Yee scheme in a lossless closed box:
//   W^n = 1/2 sum_nodes dV [ eps |E^n|^2 + mu H^{n-1/2} . H^{n+1/2} ]   (joules)
// `k_first` is the global z index of local node plane 0.
template <typename Real>
double discrete_energy(const Model& model, const FieldLayout& layout, Index k_first, const NodeRange& range,
                       const std::array<std::span<const Real>, 3>& e, const std::array<std::span<const Real>, 3>& h_old,
                       const std::array<std::span<const Real>, 3>& h_new);

// Copies the nodes of `range` out of a whole array, x fastest.
template <typename Real>
std::vector<Real> extract(std::span<const Real> field, const FieldLayout& layout, const NodeRange& range);
// extract's inverse: `values` (x fastest) into the nodes of `range` of a whole array.
template <typename Real>
void insert(std::span<const Real> values, std::span<Real> field, const FieldLayout& layout, const NodeRange& range);

}  // namespace yeex
