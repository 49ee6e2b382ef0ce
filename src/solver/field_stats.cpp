#include "src/solver/field_stats.hpp"

#include <cmath>
#include <cstring>
#include <cstdio>

namespace yeex {
namespace {

template <typename Real>
using Bits = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;

// Calls visit(i, j, k, offset) for every node of the range, k slowest.
template <typename Visit>
void for_each_node(const FieldLayout& L, const NodeRange& r, Visit visit) {
  for (Index k = r.k0; k < r.k1; ++k)
    for (Index j = r.j0; j < r.j1; ++j) {
      const Index row = L.offset(r.i0, j, k);
      for (Index i = r.i0; i < r.i1; ++i) visit(i, j, k, row + (i - r.i0));
    }
}

}  // namespace

template <typename Real>
std::uint64_t checksum(std::span<const Real> field, const FieldLayout& L, const NodeRange& r, std::uint64_t seed) {
  std::uint64_t h = seed;
  for_each_node(L, r, [&](Index, Index, Index, Index c) {
    Bits<Real> bits;
    std::memcpy(&bits, &field[c], sizeof bits);
    h = (h ^ bits) * 0x100000001b3ull;
  });
  return h;
}

std::uint64_t combine_checksums(const std::array<std::uint64_t, kComponentCount>& parts) {
  std::uint64_t h = kChecksumSeed;
  for (std::uint64_t p : parts) h = (h ^ p) * 0x100000001b3ull;
  return h;
}

std::string hex(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

template <typename Real>
std::optional<std::array<Index, 3>> find_non_finite(std::span<const Real> field, const FieldLayout& L,
                                                    const NodeRange& r) {
  for (Index k = r.k0; k < r.k1; ++k)
    for (Index j = r.j0; j < r.j1; ++j) {
      const Real* row = field.data() + L.offset(r.i0, j, k);
      bool finite = true;
      for (Index i = 0; i < r.i1 - r.i0; ++i) finite &= std::isfinite(row[i]);
      if (finite) continue;
      for (Index i = r.i0; i < r.i1; ++i)
        if (!std::isfinite(row[i - r.i0])) return std::array<Index, 3>{i, j, k};
    }
  return std::nullopt;
}

template <typename Real>
double discrete_energy(const Model& model, const FieldLayout& L, Index k_first, const NodeRange& r,
                       const std::array<std::span<const Real>, 3>& e, const std::array<std::span<const Real>, 3>& h_old,
                       const std::array<std::span<const Real>, 3>& h_new) {
  double sum = 0.0;
  for_each_node(L, r, [&](Index i, Index j, Index k, Index c) {
    const ClassKey key = model.class_key(i, j, k + k_first);
    for (int a = 0; a < 3; ++a) {
      const double ev = e[a][c];
      sum += model.constitutive(key, static_cast<Component>(a)) * ev * ev;
      sum += model.constitutive(key, static_cast<Component>(a + 3)) * double(h_old[a][c]) * double(h_new[a][c]);
    }
  });
  return 0.5 * sum * model.cell[0] * model.cell[1] * model.cell[2];
}

template <typename Real>
std::vector<Real> extract(std::span<const Real> field, const FieldLayout& L, const NodeRange& r) {
  std::vector<Real> out;
  out.reserve(r.count());
  for_each_node(L, r, [&](Index, Index, Index, Index c) { out.push_back(field[c]); });
  return out;
}

template <typename Real>
void insert(std::span<const Real> values, std::span<Real> field, const FieldLayout& L, const NodeRange& r) {
  std::size_t at = 0;
  for_each_node(L, r, [&](Index, Index, Index, Index c) { field[c] = values[at++]; });
}

#define YEEX_INSTANTIATE(Real)                                                                                       \
  template std::uint64_t checksum<Real>(std::span<const Real>, const FieldLayout&, const NodeRange&, std::uint64_t); \
  template std::optional<std::array<Index, 3>> find_non_finite<Real>(std::span<const Real>, const FieldLayout&,      \
                                                                     const NodeRange&);                              \
  template double discrete_energy<Real>(                                                                             \
      const Model&, const FieldLayout&, Index, const NodeRange&, const std::array<std::span<const Real>, 3>&,        \
      const std::array<std::span<const Real>, 3>&, const std::array<std::span<const Real>, 3>&);                     \
  template std::vector<Real> extract<Real>(std::span<const Real>, const FieldLayout&, const NodeRange&);             \
  template void insert<Real>(std::span<const Real>, std::span<Real>, const FieldLayout&, const NodeRange&);
YEEX_INSTANTIATE(float)
YEEX_INSTANTIATE(double)
#undef YEEX_INSTANTIATE

}  // namespace yeex
