// The z-slab decomposition and the halo plan, proved on the CPU before any backend executes them:
// the geometry of the split, the transfers of each phase, and a 1-D image of the Yee step run
// once on a single domain and once on N subdomains that follow the plan literally. The 1-D run
// tracks, for every plane of every component, the step its value belongs to, so a read of a ghost
// plane that was neither received nor computed is reported where it happens; the values
// themselves must match the single-domain run bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "decomposition/halo_plan.hpp"
#include "decomposition/slab_decomposition.hpp"
#include "tests/support/plane_model.hpp"

namespace yeex {
namespace {

using std::to_string;
using namespace yeex::testing;

PlaneRange owned_planes(const SlabSubdomain& d) { return {d.k_begin, d.k_end}; }
PlaneRange z_planes(const NodeRange& r) { return {r.k0, r.k1}; }
bool holds(PlaneRange outer, PlaneRange inner) { return inner.begin >= outer.begin && inner.end <= outer.end; }

// ---------------------------------------------------------------------------------------------
// The split

TEST(SlabDecomposition, SlabsCoverTheUpdatePlanesOnceInOrder) {
  for (const Case& c : valid_cases()) {
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    ASSERT_EQ(d.size(), c.subdomains);
    Index next = 0;
    for (const SlabSubdomain& s : d.subdomains()) {
      EXPECT_EQ(s.k_begin, next);
      EXPECT_GT(s.k_end, s.k_begin);
      EXPECT_EQ(s.ghost, c.depth);
      next = s.k_end;
    }
    EXPECT_EQ(next, c.nz);
  }
}

TEST(SlabDecomposition, SizesDifferByAtMostOneAndTheFirstSlabsAreThicker) {
  for (const Case& c : valid_cases()) {
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    for (int s = 0; s < d.size(); ++s) {
      const Index expected = c.nz / c.subdomains + (s < c.nz % c.subdomains ? 1 : 0);
      EXPECT_EQ(d.subdomain(s).owned_planes(), expected) << "subdomain " << s;
    }
  }
}

TEST(SlabDecomposition, StoredPlanesCoverAllNodePlanesOnce) {
  for (const Case& c : valid_cases()) {
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    Index next = 0;
    for (int s = 0; s < d.size(); ++s) {
      const NodeRange nodes = d.owned_nodes(s);
      EXPECT_EQ(nodes.k0, next);
      EXPECT_EQ(nodes.k1 - nodes.k0, d.subdomain(s).stored_planes);
      EXPECT_EQ(nodes.i1, 6);  // nx + 1 nodes along x
      EXPECT_EQ(nodes.j1, 5);  // ny + 1 nodes along y
      next = nodes.k1;
    }
    EXPECT_EQ(next, c.nz + 1);  // all_nodes: planes [0, nz]
  }
}

TEST(SlabDecomposition, NeighboursAreConsistent) {
  for (const Case& c : valid_cases()) {
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    EXPECT_EQ(d.subdomain(0).lower, kNoNeighbour);
    EXPECT_EQ(d.subdomain(d.size() - 1).upper, kNoNeighbour);
    for (int s = 0; s + 1 < d.size(); ++s) {
      EXPECT_EQ(d.subdomain(s).upper, s + 1);
      EXPECT_EQ(d.subdomain(s + 1).lower, s);
      EXPECT_EQ(d.subdomain(s).k_end, d.subdomain(s + 1).k_begin);
    }
  }
}

TEST(SlabDecomposition, UnevenSplitOfTenPlanesIntoThree) {
  const SlabDecomposition d(grid_with_nz(10), 3, 1);
  EXPECT_EQ(owned_planes(d.subdomain(0)), (PlaneRange{0, 4}));
  EXPECT_EQ(owned_planes(d.subdomain(1)), (PlaneRange{4, 7}));
  EXPECT_EQ(owned_planes(d.subdomain(2)), (PlaneRange{7, 10}));
  EXPECT_EQ(d.subdomain(0).stored_planes, 4);
  EXPECT_EQ(d.subdomain(1).stored_planes, 3);
  EXPECT_EQ(d.subdomain(2).stored_planes, 4);  // plus the inert plane nz = 10
}

TEST(SlabDecomposition, RangesAndLocalCoordinates) {
  const SlabDecomposition d(grid_with_nz(10), 3, 2);
  const NodeRange update = d.owned_update_range(1);
  EXPECT_EQ(update.i0, 0);
  EXPECT_EQ(update.i1, 5);
  EXPECT_EQ(update.j0, 0);
  EXPECT_EQ(update.j1, 4);
  EXPECT_EQ(z_planes(update), (PlaneRange{4, 7}));
  EXPECT_EQ(d.array_planes(1), (PlaneRange{2, 9}));
  EXPECT_EQ(d.array_planes(2), (PlaneRange{5, 13}));
  EXPECT_EQ(d.local_k(1, 4), 0);
  EXPECT_EQ(d.local_k(1, 2), -2);  // the lowest ghost plane
  EXPECT_EQ(d.global_k(1, 3), 7);  // the first upper ghost plane
  const NodeRange local = d.to_local(1, update);
  EXPECT_EQ(z_planes(local), (PlaneRange{0, 3}));
  EXPECT_EQ(local.i1, update.i1);
  for (Index k = -2; k < 5; ++k) EXPECT_EQ(d.local_k(1, d.global_k(1, k)), k);
}

void expect_refused(const GridShape& g, int subdomains, Index depth, const std::string& message) {
  try {
    SlabDecomposition d(g, subdomains, depth);
    ADD_FAILURE() << "accepted nz=" << g.nz << " N=" << subdomains << " R=" << depth;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(SlabDecomposition, ImpossibleSplitsAreRefusedWithAClearMessage) {
  expect_refused(grid_with_nz(10), 0, 1, "number of subdomains must be at least 1 (got 0)");
  expect_refused(grid_with_nz(10), 2, 0, "halo depth R must be at least 1 (got 0)");
  expect_refused(grid_with_nz(5), 6, 1, "a grid of 5 cells along z cannot be split into 6 slabs");
  expect_refused(grid_with_nz(10), 3, 4, "halo depth R=4 is larger than the thinnest slab (3 planes)");
  expect_refused({5, 0, 10}, 1, 1, "every axis needs at least one cell");
}

TEST(SlabDecomposition, TheTightestSplitsAreAccepted) {
  EXPECT_NO_THROW(SlabDecomposition(grid_with_nz(8), 8, 1));   // one plane per slab
  EXPECT_NO_THROW(SlabDecomposition(grid_with_nz(12), 3, 4));  // nz = N * R
  EXPECT_NO_THROW(SlabDecomposition(grid_with_nz(3), 1, 4));   // a single domain has no neighbour to feed
}

// Several slabs on one GPU (testing and teaching on fewer GPUs than slabs): contiguous groups,
// the first GPUs holding the extra slabs, every GPU at least one.
TEST(SlabDecomposition, SlabsSpreadOverGpusInContiguousGroups) {
  EXPECT_EQ(spread_slabs({0}, 1), (std::vector<int>{0}));
  EXPECT_EQ(spread_slabs({0}, 4), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(spread_slabs({2, 0}, 2), (std::vector<int>{2, 0}));  // as many slabs as GPUs: the list itself
  EXPECT_EQ(spread_slabs({0, 1}, 5), (std::vector<int>{0, 0, 0, 1, 1}));
  EXPECT_EQ(spread_slabs({3, 1, 2}, 8), (std::vector<int>{3, 3, 3, 1, 1, 1, 2, 2}));
  for (int gpus = 1; gpus <= 8; ++gpus)
    for (int slabs = gpus; slabs <= 3 * gpus + 1; ++slabs) {
      std::vector<int> list;
      for (int g = 0; g < gpus; ++g) list.push_back(10 + g);
      const std::vector<int> spread = spread_slabs(list, slabs);
      ASSERT_EQ(spread.size(), static_cast<std::size_t>(slabs));
      EXPECT_TRUE(std::is_sorted(spread.begin(), spread.end())) << slabs << " over " << gpus;
      for (int g = 0; g < gpus; ++g) {
        const auto held = std::count(spread.begin(), spread.end(), list[g]);
        EXPECT_EQ(held, slabs / gpus + (g < slabs % gpus ? 1 : 0)) << "GPU " << g << ", " << slabs << " over " << gpus;
      }
      EXPECT_EQ(most_slabs_per_gpu(spread), (slabs + gpus - 1) / gpus);
    }
  EXPECT_EQ(most_slabs_per_gpu({0, 1, 1, 2}), 2);
  EXPECT_EQ(most_slabs_per_gpu({}), 0);
}

TEST(SlabDecomposition, SpreadingFewerSlabsThanGpusIsRefused) {
  try {
    spread_slabs({0, 1, 2}, 2);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "2 slab(s) over 3 GPUs: every GPU needs at least one slab");
  }
  EXPECT_THROW(spread_slabs({}, 1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// The halo plan

TEST(SlabDecompositionHaloPlan, DepthOneSendsTheFacePlanesOfTwoComponentsPerHalfStep) {
  for (const Case& c : valid_cases()) {
    if (c.depth != 1) continue;
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    const HaloPlan plan = halo_plan(d, 1);
    const auto& before_h = plan.transfers(HaloPhase::BeforeH);
    const auto& before_e = plan.transfers(HaloPhase::BeforeE);
    EXPECT_TRUE(plan.transfers(HaloPhase::BeforeBlock).empty());
    ASSERT_EQ(before_h.size() + before_e.size(), 2u * (c.subdomains - 1));
    ASSERT_EQ(before_h.size(), before_e.size());
    for (const HaloTransfer& t : before_h) {
      const SlabSubdomain& to = d.subdomain(t.to);
      EXPECT_EQ(t.phase, HaloPhase::BeforeH);
      EXPECT_EQ(t.from, to.upper);
      EXPECT_EQ(t.components, (std::vector<Component>{Component::Ex, Component::Ey}));
      EXPECT_EQ(t.source, (PlaneRange{to.k_end, to.k_end + 1}));  // the upper neighbour's first plane
      EXPECT_EQ(t.destination, t.source);
    }
    for (const HaloTransfer& t : before_e) {
      const SlabSubdomain& to = d.subdomain(t.to);
      EXPECT_EQ(t.phase, HaloPhase::BeforeE);
      EXPECT_EQ(t.from, to.lower);
      EXPECT_EQ(t.components, (std::vector<Component>{Component::Hx, Component::Hy}));
      EXPECT_EQ(t.source, (PlaneRange{to.k_begin - 1, to.k_begin}));  // the lower neighbour's last plane
      EXPECT_EQ(t.destination, t.source);
    }
  }
}

// What coop's persistent kernel relies on (its sweeps store the planes they send as they compute
// them, border first): at depth 1 the plane a subdomain sends before E is the last plane of its H
// sweep, the plane it sends before H the first of its E sweep.
TEST(SlabDecompositionHaloPlan, DepthOneSendsTheLastHPlaneAndTheFirstEPlaneOfTheSendersSweeps) {
  for (const Case& c : valid_cases()) {
    if (c.depth != 1) continue;
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    const HaloPlan plan = halo_plan(d, 1);
    for (const HaloTransfer& t : plan.transfers(HaloPhase::BeforeE)) {
      const NodeRange h = update_ranges(d, t.from, 1, 0).h;
      EXPECT_EQ(t.source, (PlaneRange{h.k1 - 1, h.k1}));
    }
    for (const HaloTransfer& t : plan.transfers(HaloPhase::BeforeH)) {
      const NodeRange e = update_ranges(d, t.from, 1, 0).e;
      EXPECT_EQ(t.source, (PlaneRange{e.k0, e.k0 + 1}));
    }
  }
}

TEST(SlabDecompositionHaloPlan, DeepHalosMoveOwnedPlanesIntoNeighbourGhostPlanesOncePerBlock) {
  for (const Case& c : valid_cases()) {
    if (c.depth == 1) continue;
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    const HaloPlan plan = halo_plan(d, c.depth);
    EXPECT_TRUE(plan.transfers(HaloPhase::BeforeH).empty());
    EXPECT_TRUE(plan.transfers(HaloPhase::BeforeE).empty());
    const auto& block = plan.transfers(HaloPhase::BeforeBlock);
    EXPECT_EQ(block.size(), 4u * (c.subdomains - 1));  // E and H, both ways, per interface
    for (const HaloTransfer& t : block) {
      EXPECT_EQ(std::abs(t.from - t.to), 1) << t.from << " -> " << t.to;
      EXPECT_EQ(t.components.size(), 3u);
      EXPECT_EQ(t.destination, t.source);
      EXPECT_TRUE(holds(owned_planes(d.subdomain(t.from)), t.source));
      EXPECT_TRUE(holds(d.array_planes(t.to), t.destination));
      const PlaneRange mine = stored_planes(d.subdomain(t.to));
      EXPECT_TRUE(t.destination.end <= mine.begin || t.destination.begin >= mine.end) << "overwrites owned planes";
    }
  }
}

TEST(SlabDecompositionHaloPlan, DeepHalosSendRPlanesOfEAndTheHPlanesTheBorderNeeds) {
  const SlabDecomposition d(grid_with_nz(10), 3, 3);  // slabs [0,4) [4,7) [7,10)
  const HaloPlan plan = halo_plan(d, 3);
  const auto& block = plan.transfers(HaloPhase::BeforeBlock);
  const auto find = [&](int from, int to, Component c) {
    for (const HaloTransfer& t : block)
      if (t.from == from && t.to == to && t.components.front() == c) return t.source;
    return PlaneRange{};
  };
  EXPECT_EQ(find(2, 1, Component::Ex), (PlaneRange{7, 10}));
  EXPECT_EQ(find(2, 1, Component::Hx), (PlaneRange{7, 9}));
  EXPECT_EQ(find(0, 1, Component::Ex), (PlaneRange{1, 4}));
  EXPECT_EQ(find(0, 1, Component::Hx), (PlaneRange{1, 4}));
}

TEST(SlabDecompositionHaloPlan, BytesCountComponentsPlanesAndPlaneSize) {
  const HaloTransfer t{HaloPhase::BeforeBlock, 1, 0, {Component::Ex, Component::Ey, Component::Ez}, {4, 6}, {4, 6}};
  EXPECT_EQ(t.bytes(4, 1000), 3u * 2 * 1000 * 4);
  EXPECT_EQ(t.bytes(8, 1000), 3u * 2 * 1000 * 8);
}

TEST(SlabDecompositionHaloPlan, DepthBeyondTheGhostPlanesIsRefused) {
  const SlabDecomposition d(grid_with_nz(12), 3, 2);
  EXPECT_THROW(halo_plan(d, 3), std::invalid_argument);
  EXPECT_THROW(halo_plan(d, 0), std::invalid_argument);
  EXPECT_THROW(update_ranges(d, 0, 2, 2), std::invalid_argument);  // substep outside the block
  EXPECT_NO_THROW(halo_plan(d, 1));                                // a shallower halo fits
}

TEST(SlabDecompositionHaloPlan, ExchangeIsDueAtTheStartOfEveryBlock) {
  for (Index n = 0; n < 10; ++n) EXPECT_TRUE(exchange_due(1, n));
  EXPECT_TRUE(exchange_due(3, 0));
  EXPECT_FALSE(exchange_due(3, 1));
  EXPECT_FALSE(exchange_due(3, 2));
  EXPECT_TRUE(exchange_due(3, 3));
}

TEST(SlabDecompositionHaloPlan, UpdateRangesShrinkByOnePlanePerSubstepAndAlwaysHoldTheOwnedPlanes) {
  for (const Case& c : valid_cases()) {
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    for (int s = 0; s < d.size(); ++s)
      for (Index t = 0; t < c.depth; ++t) {
        const SweepRanges r = update_ranges(d, s, c.depth, t);
        const PlaneRange owned = owned_planes(d.subdomain(s));
        for (const NodeRange& n : {r.h, r.e}) {
          EXPECT_EQ(n.i0, 0);
          EXPECT_EQ(n.i1, 5);
          EXPECT_EQ(n.j0, 0);
          EXPECT_EQ(n.j1, 4);
          EXPECT_TRUE(holds(z_planes(n), owned));
          EXPECT_TRUE(holds({0, c.nz}, z_planes(n)));  // never the inert plane nz
        }
        if (c.depth == 1) {
          EXPECT_EQ(z_planes(r.h), owned);
          EXPECT_EQ(z_planes(r.e), owned);
        } else if (t + 1 < c.depth) {
          const SweepRanges next = update_ranges(d, s, c.depth, t + 1);
          EXPECT_TRUE(holds(z_planes(r.h), z_planes(next.h)));
          EXPECT_TRUE(holds(z_planes(r.e), z_planes(next.e)));
        }
      }
  }
}

TEST(SlabDecompositionHaloPlan, SourcePlanesAreTheStoredPlanesOrTheWholeArrayInsideTheGrid) {
  const SlabDecomposition d(grid_with_nz(10), 3, 2);
  EXPECT_EQ(source_planes(d, 1, 1), (PlaneRange{4, 7}));
  EXPECT_EQ(source_planes(d, 0, 2), (PlaneRange{0, 6}));
  EXPECT_EQ(source_planes(d, 1, 2), (PlaneRange{2, 9}));
  EXPECT_EQ(source_planes(d, 2, 2), (PlaneRange{5, 11}));
}

// ---------------------------------------------------------------------------------------------
// A 1-D image of the Yee step, single-domain and decomposed

// The decomposed run's inputs: the plan, and where each subdomain injects sources.
struct Schedule {
  HaloPlan plan;
  std::function<PlaneRange(int)> sources;
};

Schedule schedule_of(const SlabDecomposition& d, Index depth) {
  return {halo_plan(d, depth), [&d, depth](int s) { return source_planes(d, s, depth); }};
}

// Runs `steps` steps of the step loop in decomposition/halo_plan.hpp, literally, beside the
// single-domain run, and compares the stored planes after every step.
Findings run_decomposed(const SlabDecomposition& d, const Schedule& schedule, Index steps) {
  const Index depth = schedule.plan.halo_depth, nz = d.grid().nz;
  std::vector<PlaneStore> slabs;
  for (int s = 0; s < d.size(); ++s) slabs.emplace_back(d.array_planes(s), stored_planes(d.subdomain(s)), nz);
  SingleDomain reference{nz};
  Findings found;
  const auto who = [](int s) { return "subdomain " + to_string(s); };
  for (Index n = 0; n < steps; ++n) {
    if (exchange_due(depth, n)) execute(schedule.plan.transfers(HaloPhase::BeforeBlock), slabs);
    execute(schedule.plan.transfers(HaloPhase::BeforeH), slabs);
    for (int s = 0; s < d.size(); ++s)
      sweep(slabs[s], false, z_planes(update_ranges(d, s, depth, n % depth).h), n, who(s), found.invalid_read);
    execute(schedule.plan.transfers(HaloPhase::BeforeE), slabs);
    for (int s = 0; s < d.size(); ++s)
      sweep(slabs[s], true, z_planes(update_ranges(d, s, depth, n % depth).e), n, who(s), found.invalid_read);
    for (int s = 0; s < d.size(); ++s) inject(slabs[s], schedule.sources(s), nz, n);
    reference.step(n);
    compare_stored(d, slabs, reference, n, found);
  }
  if (!reference.invalid_read.empty())
    ADD_FAILURE() << "the 1-D model itself is inconsistent: " << reference.invalid_read;
  return found;
}

Findings run_case(const Case& c, const std::function<void(Schedule&)>& alter = {}) {
  const SlabDecomposition d = decompose(c);
  Schedule schedule = schedule_of(d, c.depth);
  if (alter) alter(schedule);
  return run_decomposed(d, schedule, 3 * c.depth + 1);
}

TEST(SlabDecompositionSchedule, EveryPlaneASweepReadsIsOwnedReceivedOrComputedInTheBlock) {
  for (const Case& c : valid_cases()) EXPECT_EQ(run_case(c).invalid_read, "") << c.label();
}

TEST(SlabDecompositionSchedule, OwnedPlanesAreValidAfterEveryStep) {
  for (const Case& c : valid_cases()) EXPECT_EQ(run_case(c).invalid_owned, "") << c.label();
}

TEST(SlabDecompositionSchedule, MatchesTheSingleDomainRunBitForBit) {
  for (const Case& c : valid_cases()) EXPECT_EQ(run_case(c).mismatch, "") << c.label();
}

// The checks above are not vacuous: break the plan and they fail.
void drop_transfer(Schedule& s, HaloPhase phase, Component first) {
  auto& list = s.plan.by_phase[static_cast<int>(phase)];
  const auto it =
      std::find_if(list.begin(), list.end(), [&](const HaloTransfer& t) { return t.components.front() == first; });
  ASSERT_NE(it, list.end());
  list.erase(it);
}

TEST(SlabDecompositionSchedule, AMissingTransferIsCaught) {
  const Findings per_step =
      run_case({12, 3, 1}, [](Schedule& s) { drop_transfer(s, HaloPhase::BeforeH, Component::Ex); });
  EXPECT_NE(per_step.invalid_read, "");
  EXPECT_NE(per_step.mismatch, "");
  const Findings per_block =
      run_case({12, 3, 3}, [](Schedule& s) { drop_transfer(s, HaloPhase::BeforeBlock, Component::Hx); });
  EXPECT_NE(per_block.invalid_read, "");
  EXPECT_NE(per_block.mismatch, "");
}

TEST(SlabDecompositionSchedule, DeepHalosNeedSourcesInTheGhostPlanes) {
  const Case c{12, 3, 2};
  const SlabDecomposition d = decompose(c);
  Schedule schedule = schedule_of(d, c.depth);
  schedule.sources = [&d](int s) { return stored_planes(d.subdomain(s)); };
  const Findings found = run_decomposed(d, schedule, 3 * c.depth + 1);
  EXPECT_EQ(found.invalid_read, "");  // the plan is complete...
  EXPECT_NE(found.mismatch, "");      // ...but the redundant border misses the sources
}

TEST(SlabDecompositionSchedule, SourcesInStaleGhostPlanesAreHarmless) {
  for (const Case& c : valid_cases()) {
    const SlabDecomposition d = decompose(c);
    Schedule schedule = schedule_of(d, c.depth);
    schedule.sources = [&d](int s) { return d.array_planes(s); };  // every plane, stale or not
    EXPECT_EQ(run_decomposed(d, schedule, 3 * c.depth + 1).mismatch, "") << c.label();
  }
}

// ---------------------------------------------------------------------------------------------
// The border split (backends that overlap the exchange with the sweeps)

// The planes of `component` that the update of plane k reads (kReads) or writes (k itself).
bool reads(Component updated, Index k, Component component, PlaneRange planes) {
  for (const Read& r : kReads[static_cast<int>(updated)])
    if (r.component == component && planes.contains(k + r.dk)) return true;
  return false;
}

// Calls check(d, plan, s, split of s) for every subdomain of every valid case.
using SplitCheck = std::function<void(const SlabDecomposition&, const HaloPlan&, int, const BorderSplit&)>;
void for_each_split(const SplitCheck& check) {
  for (const Case& c : valid_cases()) {
    SCOPED_TRACE(c.label());
    const SlabDecomposition d = decompose(c);
    const HaloPlan plan = halo_plan(d, c.depth);
    for (int s = 0; s < d.size(); ++s) check(d, plan, s, border_split(d, plan, s));
  }
}

TEST(SlabDecompositionBorderSplit, CutsEachSweepIntoLowerBorderBulkAndUpperBorderInOrder) {
  for_each_split([](const SlabDecomposition& d, const HaloPlan& plan, int s, const BorderSplit& cut) {
    const SweepRanges ranges = update_ranges(d, s, plan.halo_depth, 0);
    for (const auto& [sweep, range] : {std::pair{cut.h, ranges.h}, std::pair{cut.e, ranges.e}}) {
      for (const NodeRange& part : {sweep.lower, sweep.bulk, sweep.upper}) {
        EXPECT_EQ(part.i0, range.i0);
        EXPECT_EQ(part.i1, range.i1);
        EXPECT_EQ(part.j0, range.j0);
        EXPECT_EQ(part.j1, range.j1);
        EXPECT_LE(part.k0, part.k1);
      }
      EXPECT_EQ(sweep.lower.k0, range.k0);
      EXPECT_EQ(sweep.lower.k1, sweep.bulk.k0);
      EXPECT_EQ(sweep.bulk.k1, sweep.upper.k0);
      EXPECT_EQ(sweep.upper.k1, range.k1);
    }
  });
}

TEST(SlabDecompositionBorderSplit, TheBulkTouchesNoPlaneInFlight) {
  for_each_split([](const SlabDecomposition&, const HaloPlan& plan, int s, const BorderSplit& cut) {
    for (HaloPhase phase : kAllHaloPhases)
      for (const HaloTransfer& t : plan.transfers(phase))
        for (bool electric : {false, true}) {
          const PlaneRange bulk = z_planes(electric ? cut.e.bulk : cut.h.bulk);
          for (Index k = bulk.begin; k < bulk.end; ++k)
            for (Component updated : kAllComponents) {
              if (is_electric(updated) != electric) continue;
              for (Component moved : t.components) {
                if (t.to == s)
                  EXPECT_FALSE(reads(updated, k, moved, t.destination))
                      << component_name(updated) << " at bulk plane " << k << " reads a received plane";
                if (t.from == s)
                  EXPECT_FALSE(updated == moved && t.source.contains(k))
                      << component_name(updated) << " at bulk plane " << k << " overwrites a plane being sent";
              }
            }
        }
  });
}

// The bulk E sweep follows only the bulk H sweep (border_first_exchange.hpp): it reads no H
// plane a border H sweep writes, and writes no E plane one reads.
TEST(SlabDecompositionBorderSplit, TheBulkEAndTheBorderHTouchNoCommonPlane) {
  for_each_split([](const SlabDecomposition&, const HaloPlan&, int, const BorderSplit& cut) {
    const PlaneRange bulk = z_planes(cut.e.bulk);
    for (const NodeRange& border : {cut.h.lower, cut.h.upper}) {
      const PlaneRange h = z_planes(border);
      for (Index k = bulk.begin; k < bulk.end; ++k)
        for (Component e : {Component::Ex, Component::Ey, Component::Ez}) {
          for (Component read : {Component::Hx, Component::Hy, Component::Hz})
            EXPECT_FALSE(reads(e, k, read, h))
                << component_name(e) << " at bulk plane " << k << " reads a border H plane";
          for (Index j = h.begin; j < h.end; ++j)
            for (Component hc : {Component::Hx, Component::Hy, Component::Hz})
              EXPECT_FALSE(reads(hc, j, e, PlaneRange{k, k + 1}))
                  << component_name(hc) << " at border plane " << j << " reads bulk E plane " << k;
        }
    }
  });
}

TEST(SlabDecompositionBorderSplit, DepthOneBordersAreTheLastHPlaneAndTheFirstAndLastEPlanes) {
  const SlabDecomposition d(grid_with_nz(12), 3, 1);  // slabs [0,4) [4,8) [8,12)
  const HaloPlan plan = halo_plan(d, 1);
  const auto planes = [](const SplitSweep& cut) {
    return std::array<PlaneRange, 3>{z_planes(cut.lower), z_planes(cut.bulk), z_planes(cut.upper)};
  };
  using Cut = std::array<PlaneRange, 3>;
  EXPECT_EQ(planes(border_split(d, plan, 0).h), (Cut{{{0, 0}, {0, 3}, {3, 4}}}));
  EXPECT_EQ(planes(border_split(d, plan, 0).e), (Cut{{{0, 0}, {0, 3}, {3, 4}}}));  // no lower neighbour
  EXPECT_EQ(planes(border_split(d, plan, 1).h), (Cut{{{4, 4}, {4, 7}, {7, 8}}}));
  EXPECT_EQ(planes(border_split(d, plan, 1).e), (Cut{{{4, 5}, {5, 7}, {7, 8}}}));
  EXPECT_EQ(planes(border_split(d, plan, 2).h), (Cut{{{8, 8}, {8, 12}, {12, 12}}}));  // no upper neighbour
  EXPECT_EQ(planes(border_split(d, plan, 2).e), (Cut{{{8, 9}, {9, 12}, {12, 12}}}));
  // A one-plane slab is all border.
  const SlabDecomposition thin(grid_with_nz(3), 3, 1);
  const HaloPlan thin_plan = halo_plan(thin, 1);
  EXPECT_EQ(planes(border_split(thin, thin_plan, 1).h), (Cut{{{1, 1}, {1, 1}, {1, 2}}}));
  EXPECT_EQ(planes(border_split(thin, thin_plan, 1).e), (Cut{{{1, 2}, {2, 2}, {2, 2}}}));
}

TEST(SlabDecompositionBorderSplit, DeepHalosBorderTheGhostPlanesAndTheRPlanesSentEachWay) {
  const SlabDecomposition d(grid_with_nz(30), 3, 3);  // slabs [0,10) [10,20) [20,30)
  const HaloPlan plan = halo_plan(d, 3);
  const BorderSplit middle = border_split(d, plan, 1);
  EXPECT_EQ(z_planes(middle.h.lower), (PlaneRange{7, 12}));   // [b-R, b+R-1)
  EXPECT_EQ(z_planes(middle.h.upper), (PlaneRange{17, 22}));  // [e-R, e+R-1)
  EXPECT_EQ(z_planes(middle.e.lower), (PlaneRange{8, 13}));   // [b-R+1, b+R)
  EXPECT_EQ(z_planes(middle.e.upper), (PlaneRange{17, 22}));  // [e-R, e+R-1)
  const BorderSplit first = border_split(d, plan, 0);
  EXPECT_EQ(z_planes(first.h.lower), (PlaneRange{0, 0}));
  EXPECT_EQ(z_planes(first.h.bulk), (PlaneRange{0, 7}));
  EXPECT_EQ(z_planes(first.e.upper), (PlaneRange{7, 12}));
  // Slabs of R planes: the borders meet and the bulk is empty.
  const SlabDecomposition tight(grid_with_nz(9), 3, 3);
  const BorderSplit squeezed = border_split(tight, halo_plan(tight, 3), 1);
  EXPECT_EQ(z_planes(squeezed.h.bulk).count(), 0);
  EXPECT_EQ(z_planes(squeezed.e.bulk).count(), 0);
}

}  // namespace
}  // namespace yeex
