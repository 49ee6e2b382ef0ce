#include "decomposition/halo_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace yeex {
namespace {

const std::vector<Component> kElectric = {Component::Ex, Component::Ey, Component::Ez};
const std::vector<Component> kMagnetic = {Component::Hx, Component::Hy, Component::Hz};
// Only the components the stencil reads across a z face (see kernels/yee_stencil.hpp).
const std::vector<Component> kElectricReadAcrossZ = {Component::Ex, Component::Ey};
const std::vector<Component> kMagneticReadAcrossZ = {Component::Hx, Component::Hy};

void check_depth(const SlabDecomposition& d, Index halo_depth) {
  if (halo_depth < 1 || halo_depth > d.halo_depth())
    throw std::invalid_argument("halo depth R=" + std::to_string(halo_depth) + " does not fit the decomposition: " +
                                "it needs 1 <= R <= " + std::to_string(d.halo_depth()) + " (its ghost planes)");
}

HaloTransfer transfer(HaloPhase phase, int from, int to, const std::vector<Component>& components, PlaneRange planes) {
  return {phase, from, to, components, planes, planes};
}

// R = 1: E of the upper neighbour's first plane before H, H of the lower neighbour's last plane before E.
void plan_per_step(const SlabDecomposition& d, HaloPlan& plan) {
  for (int s = 0; s < d.size(); ++s) {
    const SlabSubdomain& me = d.subdomain(s);
    if (me.upper != kNoNeighbour)
      plan.by_phase[static_cast<int>(HaloPhase::BeforeH)].push_back(
          transfer(HaloPhase::BeforeH, me.upper, s, kElectricReadAcrossZ, {me.k_end, me.k_end + 1}));
    if (me.lower != kNoNeighbour)
      plan.by_phase[static_cast<int>(HaloPhase::BeforeE)].push_back(
          transfer(HaloPhase::BeforeE, me.lower, s, kMagneticReadAcrossZ, {me.k_begin - 1, me.k_begin}));
  }
}

// R > 1: the whole ghost zone of all six components, once per block (proof in the header).
void plan_per_block(const SlabDecomposition& d, Index R, HaloPlan& plan) {
  auto& block = plan.by_phase[static_cast<int>(HaloPhase::BeforeBlock)];
  for (int s = 0; s < d.size(); ++s) {
    const SlabSubdomain& me = d.subdomain(s);
    if (me.upper != kNoNeighbour) {
      block.push_back(transfer(HaloPhase::BeforeBlock, me.upper, s, kElectric, {me.k_end, me.k_end + R}));
      block.push_back(transfer(HaloPhase::BeforeBlock, me.upper, s, kMagnetic, {me.k_end, me.k_end + R - 1}));
    }
    if (me.lower != kNoNeighbour) {
      block.push_back(transfer(HaloPhase::BeforeBlock, me.lower, s, kElectric, {me.k_begin - R, me.k_begin}));
      block.push_back(transfer(HaloPhase::BeforeBlock, me.lower, s, kMagnetic, {me.k_begin - R, me.k_begin}));
    }
  }
}

// [k0, k1) planes of the full x-y extent of the update nodes, clipped to the update planes [0, nz).
NodeRange update_slab(const GridShape& g, Index k0, Index k1) {
  return {0, g.nx, 0, g.ny, std::max<Index>(k0, 0), std::min(k1, g.nz)};
}

}  // namespace

HaloPlan halo_plan(const SlabDecomposition& d, Index halo_depth) {
  check_depth(d, halo_depth);
  HaloPlan plan;
  plan.halo_depth = halo_depth;
  if (halo_depth == 1)
    plan_per_step(d, plan);
  else
    plan_per_block(d, halo_depth, plan);
  return plan;
}

SweepRanges update_ranges(const SlabDecomposition& d, int s, Index halo_depth, Index substep) {
  check_depth(d, halo_depth);
  if (substep < 0 || substep >= halo_depth)
    throw std::invalid_argument("substep " + std::to_string(substep) +
                                " is outside a block of R=" + std::to_string(halo_depth) + " steps");
  const SlabSubdomain& me = d.subdomain(s);
  if (halo_depth == 1) return {d.owned_update_range(s), d.owned_update_range(s)};
  const Index R = halo_depth, t = substep;
  return {update_slab(d.grid(), me.k_begin - R + t, me.k_end + R - 1 - t),
          update_slab(d.grid(), me.k_begin - R + t + 1, me.k_end + R - 1 - t)};
}

BorderSplit border_split(const SlabDecomposition& d, const HaloPlan& plan, int s) {
  // The planes that cross s's faces in one exchanging step: received (into) or sent, E or H,
  // exchanged with the lower or the upper neighbour.
  struct Crossing {
    bool into, electric, lower;
    PlaneRange planes;
  };
  std::vector<Crossing> crossings;
  const int lower = d.subdomain(s).lower;
  for (HaloPhase phase : kAllHaloPhases)
    for (const HaloTransfer& t : plan.transfers(phase)) {
      if (t.components.empty()) continue;
      const bool electric = is_electric(t.components.front());
      if (t.to == s) crossings.push_back({true, electric, t.from == lower, t.destination});
      if (t.from == s) crossings.push_back({false, electric, t.to == lower, t.source});
    }
  const auto split = [&](const NodeRange& range, bool electric) {
    // The update of plane k reads its own field at k and the other field at k, k+1 (H) or
    // k-1, k (E); it writes its own field at k.
    const auto touches = [&](const Crossing& c, Index k) {
      if (c.electric == electric) return c.planes.contains(k);
      if (!c.into) return false;  // reading a plane that is being sent is no conflict
      return c.planes.contains(k) || c.planes.contains(electric ? k - 1 : k + 1);
    };
    Index lower_end = range.k0, upper_begin = range.k1;
    for (Index k = range.k0; k < range.k1; ++k)
      for (const Crossing& c : crossings)
        if (touches(c, k)) {
          if (c.lower)
            lower_end = std::max(lower_end, k + 1);
          else
            upper_begin = std::min(upper_begin, k);
        }
    const Index x = std::min(lower_end, range.k1), y = std::max(upper_begin, x);
    SplitSweep cut{range, range, range};
    cut.lower.k1 = cut.bulk.k0 = x;
    cut.bulk.k1 = cut.upper.k0 = y;
    return cut;
  };
  const SweepRanges ranges = update_ranges(d, s, plan.halo_depth, 0);
  const SplitSweep h = split(ranges.h, false);
  // The E sweep reads the H border planes as it reads received ones, so that an E plane reading
  // one is border too, on its side (see the header: the bulk E then follows the bulk H alone).
  for (const auto& [border, on_lower] : {std::pair{h.lower, true}, std::pair{h.upper, false}})
    if (!border.empty()) crossings.push_back({true, false, on_lower, PlaneRange{border.k0, border.k1}});
  return {h, split(ranges.e, true)};
}

PlaneRange source_planes(const SlabDecomposition& d, int s, Index halo_depth) {
  check_depth(d, halo_depth);
  const SlabSubdomain& me = d.subdomain(s);
  const PlaneRange stored{me.k_begin, me.k_begin + me.stored_planes};
  if (halo_depth == 1) return stored;
  return {std::max<Index>(stored.begin - halo_depth, 0), std::min(stored.end + halo_depth, d.grid().nz + 1)};
}

}  // namespace yeex
