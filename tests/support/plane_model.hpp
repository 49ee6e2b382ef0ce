// The splits the decomposition tests run through, and a 1-D image of the Yee step for tests that
// prove a schedule on the CPU: every plane of every component holds a value and the step it
// belongs to, a sweep mixes what the stencil reads along z (kernels/yee_stencil.hpp) and notes a
// read of a plane of the wrong step, and a single-domain run gives the values every decomposed
// run must match bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "decomposition/halo_plan.hpp"
#include "decomposition/slab_decomposition.hpp"

namespace yeex::testing {

using std::to_string;

inline GridShape grid_with_nz(Index nz) { return {5, 4, nz}; }

// A split to test: nz planes (of 5 x 4 nodes) over `subdomains` slabs with halo depth `depth`.
struct Case {
  Index nz = 0;
  int subdomains = 0;
  Index depth = 0;

  std::string label() const { return "nz=" + to_string(nz) + " N=" + to_string(subdomains) + " R=" + to_string(depth); }
};

// N = 1..8, R = 1..4, over even and uneven splits, the tightest (nz = N*R) included, and a
// single domain thinner than its halo.
inline std::vector<Case> valid_cases() {
  std::vector<Case> cases;
  for (int n = 1; n <= 8; ++n)
    for (Index r = 1; r <= 4; ++r)
      for (Index nz : {n * r, n * r + 1, n * r + n - 1, 2 * n * r + 3, Index{2}, Index{10}, Index{37}}) {
        const bool fits = nz >= n && (n == 1 || nz / n >= r);  // one domain has no neighbour to feed
        const bool seen = std::any_of(cases.begin(), cases.end(),
                                      [&](const Case& c) { return c.nz == nz && c.subdomains == n && c.depth == r; });
        if (fits && !seen) cases.push_back({nz, n, r});
      }
  return cases;
}

inline SlabDecomposition decompose(const Case& c) {
  return SlabDecomposition(grid_with_nz(c.nz), c.subdomains, c.depth);
}

inline PlaneRange stored_planes(const SlabSubdomain& d) { return {d.k_begin, d.k_begin + d.stored_planes}; }

// What the update of each component at plane k reads along z, its own old value first: the z
// offsets of kernels/yee_stencil.hpp (x and y neighbours lie in the same plane).
struct Read {
  Component component;
  int dk;
};
inline const std::array<std::vector<Read>, kComponentCount> kReads = {{
    {{Component::Ex, 0}, {Component::Hz, 0}, {Component::Hy, 0}, {Component::Hy, -1}},
    {{Component::Ey, 0}, {Component::Hx, 0}, {Component::Hx, -1}, {Component::Hz, 0}},
    {{Component::Ez, 0}, {Component::Hy, 0}, {Component::Hx, 0}},
    {{Component::Hx, 0}, {Component::Ez, 0}, {Component::Ey, 0}, {Component::Ey, 1}},
    {{Component::Hy, 0}, {Component::Ex, 0}, {Component::Ex, 1}, {Component::Ez, 0}},
    {{Component::Hz, 0}, {Component::Ey, 0}, {Component::Ex, 0}},
}};

// The value of one component at one plane, and the step it belongs to: E or H after n steps has
// level n. A pad or the inert plane nz never changes (kConstant); a ghost plane nobody has filled
// holds garbage (kStale).
inline constexpr Index kStale = -1;
inline constexpr Index kConstant = -2;
struct Cell {
  std::uint64_t value = 0;
  Index level = kStale;
};

// Any deterministic update in which every input matters will do.
inline std::uint64_t mix(std::uint64_t acc, std::uint64_t x) {
  return (acc ^ x) * 0x100000001B3ull + 0x9E3779B97F4A7C15ull;
}
inline std::uint64_t initial_value(Component c, Index k) {
  return mix(static_cast<std::uint64_t>(c) + 1, static_cast<std::uint64_t>(k));
}
inline std::uint64_t source_value(Component c, Index k, Index n) {
  return mix(initial_value(c, k), static_cast<std::uint64_t>(n));
}

// The six components over a range of global planes (a subdomain's local array).
class PlaneStore {
 public:
  // Stored planes start from the global initial state, other planes inside the grid as garbage.
  PlaneStore(PlaneRange planes, PlaneRange stored, Index nz) : planes_(planes) {
    for (Component c : kAllComponents) {
      cells_[static_cast<int>(c)].resize(static_cast<std::size_t>(planes.count()));
      for (Index k = planes.begin; k < planes.end; ++k) at(c, k) = initial_cell(c, k, stored, nz);
    }
  }

  Cell& at(Component c, Index k) {
    if (!planes_.contains(k)) throw std::out_of_range("plane " + to_string(k) + " is outside the local array");
    return cells_[static_cast<int>(c)].at(static_cast<std::size_t>(k - planes_.begin));
  }

 private:
  static Cell initial_cell(Component c, Index k, PlaneRange stored, Index nz) {
    if (k < 0 || k > nz) return {0, kConstant};
    if (stored.contains(k)) return {initial_value(c, k), k == nz ? kConstant : 0};
    return {0xBAD0BAD0BAD0BAD0ull ^ static_cast<std::uint64_t>(k), kStale};
  }

  PlaneRange planes_;
  std::array<std::vector<Cell>, kComponentCount> cells_;
};

// Where the decomposed run first went wrong; empty strings mean it did not.
struct Findings {
  std::string invalid_read;   // a sweep read a plane not owned, received or computed this block
  std::string invalid_owned;  // an owned plane did not hold the current step after a step
  std::string mismatch;       // a stored value differs from the single-domain run
};

inline void note(std::string& first, const std::string& what) {
  if (first.empty()) first = what;
}

inline Cell updated(PlaneStore& f, Component c, Index k, Index n, const std::string& who, std::string& invalid_read) {
  std::uint64_t value = static_cast<std::uint64_t>(c);
  bool valid = true;
  for (const Read& r : kReads[static_cast<int>(c)]) {
    const Cell& in = f.at(r.component, k + r.dk);
    const Index expected = is_electric(c) && !is_electric(r.component) ? n + 1 : n;  // E reads the new H
    if (in.level != expected && in.level != kConstant) {
      valid = false;
      note(invalid_read, who + ", step " + to_string(n) + ": " + std::string(component_name(c)) + " at plane " +
                             to_string(k) + " reads " + std::string(component_name(r.component)) + " at plane " +
                             to_string(k + r.dk) + " of level " + to_string(in.level) + ", expected " +
                             to_string(expected));
    }
    value = mix(value, in.value);
  }
  return {value, valid ? n + 1 : kStale};
}

inline void sweep(PlaneStore& f, bool electric, PlaneRange planes, Index n, const std::string& who,
                  std::string& invalid_read) {
  for (Index k = planes.begin; k < planes.end; ++k)
    for (Component c : kAllComponents)
      if (is_electric(c) == electric) f.at(c, k) = updated(f, c, k, n, who, invalid_read);
}

// Sources sit on every node plane of every component but the inert plane nz.
inline void inject(PlaneStore& f, PlaneRange planes, Index nz, Index n) {
  for (Index k = std::max<Index>(planes.begin, 0); k < std::min(planes.end, nz); ++k)
    for (Component c : kAllComponents) f.at(c, k).value += source_value(c, k, n);
}

struct SingleDomain {
  Index nz;
  PlaneStore fields{{-1, nz + 2}, {0, nz + 1}, nz};
  std::string invalid_read;

  void step(Index n) {
    sweep(fields, false, {0, nz}, n, "single domain", invalid_read);
    sweep(fields, true, {0, nz}, n, "single domain", invalid_read);
    inject(fields, {0, nz}, nz, n);
  }
};

inline void execute(const std::vector<HaloTransfer>& transfers, std::vector<PlaneStore>& slabs) {
  for (const HaloTransfer& t : transfers)
    for (Component c : t.components)
      for (Index k = 0; k < t.source.count(); ++k)
        slabs[t.to].at(c, t.destination.begin + k) = slabs[t.from].at(c, t.source.begin + k);
}

inline void compare_stored(const SlabDecomposition& d, std::vector<PlaneStore>& slabs, SingleDomain& reference, Index n,
                           Findings& found) {
  for (int s = 0; s < d.size(); ++s) {
    const PlaneRange stored = stored_planes(d.subdomain(s));
    for (Component c : kAllComponents)
      for (Index k = stored.begin; k < stored.end; ++k) {
        const Cell& mine = slabs[s].at(c, k);
        const std::string where = "subdomain " + to_string(s) + ", after step " + to_string(n) + ": " +
                                  std::string(component_name(c)) + " at plane " + to_string(k);
        if (mine.level != n + 1 && mine.level != kConstant) note(found.invalid_owned, where + " is stale");
        if (mine.value != reference.fields.at(c, k).value) note(found.mismatch, where + " differs");
      }
  }
}

}  // namespace yeex::testing
