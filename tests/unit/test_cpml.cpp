// CPML (kernels/cpml.hpp) on the host engine: the reflection of a 10-cell CPML against a
// large-domain reference, the bitwise contract with CPML slabs crossing subdomain boundaries
// (host-staged and B+2R, whose ghost planes carry the slabs' psi), and the energy leaving the box.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <type_traits>

#include "physics/constants.hpp"
#include "src/solver/cpml_reflection.hpp"
#include "src/solver/cpml_setup.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/contract_deck.hpp"
#include "tests/support/engine_fixture.hpp"
#include "tests/support/run_helpers.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

TEST(Cpml, TenCellsReflectLessThanMinus60Decibels) {
  const CpmlReflection r = measure_cpml_reflection();
  std::printf(
      "CPML reflection: %.1f dB (10 cells, %lld^3 box against %lld^3, %lld steps, probe %.0f mm from the "
      "source, Ricker %.1f GHz; max |diff| %.3g of max |E| %.3g V/m)\n",
      r.db, static_cast<long long>(r.small_cells), static_cast<long long>(r.reference_cells),
      static_cast<long long>(r.steps), r.probe_distance * 1e3, r.frequency / 1e9, r.max_difference, r.max_reference);
  EXPECT_LE(r.db, -60.0);
  EXPECT_GT(r.max_reference, 0.0);
}

TEST(Cpml, ThickerIsBetterThanThinner) {
  CpmlReflectionOptions thin;
  thin.cpml.cells = 4;
  thin.interior = 12;
  CpmlReflectionOptions thick = thin;
  thick.cpml.cells = 8;
  const double thin_db = measure_cpml_reflection(thin).db, thick_db = measure_cpml_reflection(thick).db;
  std::printf("CPML reflection: %.1f dB with 4 cells, %.1f dB with 8 cells\n", thin_db, thick_db);
  EXPECT_LT(thick_db, thin_db - 6);
}

// The measurement sees a reflection: a slab without conductivity is free space ending on PEC.
TEST(Cpml, MeasurementSeesAPecWall) {
  CpmlReflectionOptions lossless;
  lossless.cpml.cells = 4;
  lossless.interior = 12;
  lossless.cpml.sigma_max = Vec3{0, 0, 0};
  lossless.cpml.alpha_max = 0;
  const double db = measure_cpml_reflection(lossless).db;
  std::printf("PEC wall behind a lossless slab: %.1f dB\n", db);
  EXPECT_GT(db, -30.0);
}

template <typename Real>
RunResult run_cpml(int subdomains, const std::string& exchange, Index depth,
                   const Deck& deck = testing::cpml_contract_deck()) {
  return testing::run_on_slabs<Real>(deck, subdomains, exchange, depth);
}

template <typename Real>
void expect_cpml_identical_to_one_slab(int subdomains, const std::string& exchange, Index depth) {
  const RunResult reference = run_cpml<Real>(1, "host-staged", 1);
  const RunResult split = run_cpml<Real>(subdomains, exchange, depth);
  EXPECT_EQ(split.subdomains, subdomains);
  testing::expect_same_bits(split, reference);
}

class CpmlBitwise : public ::testing::TestWithParam<std::tuple<int, std::string, Index>> {};

TEST_P(CpmlBitwise, Float32) {
  const auto& [n, exchange, depth] = GetParam();
  expect_cpml_identical_to_one_slab<float>(n, exchange, depth);
}

TEST_P(CpmlBitwise, Float64) {
  const auto& [n, exchange, depth] = GetParam();
  expect_cpml_identical_to_one_slab<double>(n, exchange, depth);
}

std::vector<std::tuple<int, std::string, Index>> bitwise_cases() {
  std::vector<std::tuple<int, std::string, Index>> list;
  for (int n = 2; n <= 4; ++n) list.emplace_back(n, "host-staged", 1);
  list.emplace_back(2, "host-staged", 2);  // host-staged with R > 1 is b2r's host transport, psi included
  for (Index depth = 2; depth <= 4; ++depth)
    for (int n = 1; n <= 4; ++n) list.emplace_back(n, "b2r", depth);
  return list;
}

INSTANTIATE_TEST_SUITE_P(HostEngine, CpmlBitwise, ::testing::ValuesIn(bitwise_cases()), [](const auto& info) {
  return std::get<1>(info.param).substr(0, 4) + "_" + std::to_string(std::get<0>(info.param)) + "slabs_R" +
         std::to_string(std::get<2>(info.param));
});

// CPML on some faces only (x_min, y_max, z_max; PEC elsewhere): still bit for bit.
TEST(Cpml, SomeFacesOnlyKeepTheContract) {
  Deck partial = testing::cpml_contract_deck();
  partial.boundary = {BoundaryKind::cpml, BoundaryKind::pec, BoundaryKind::pec,
                      BoundaryKind::cpml, BoundaryKind::pec, BoundaryKind::cpml};
  const RunResult reference = run_cpml<float>(1, "host-staged", 1, partial);
  for (const auto& [n, exchange, depth] : {std::tuple{3, "host-staged", 1}, std::tuple{4, "b2r", 3}}) {
    SCOPED_TRACE(std::string(exchange) + " on " + std::to_string(n) + " slabs");
    testing::expect_same_bits(run_cpml<float>(n, exchange, depth, partial), reference);
  }
}

// The CPML must make a difference (else the contract above would hold trivially): the probes
// differ from the same deck with PEC walls.
TEST(Cpml, ChangesTheFieldsAgainstPec) {
  Deck pec = testing::cpml_contract_deck();
  pec.boundary.fill(BoundaryKind::pec);
  RunConfig config;
  const RunResult with = run_model(build_model(testing::cpml_contract_deck()), config);
  const RunResult without = run_model(build_model(pec), config);
  EXPECT_NE(with.checksum, without.checksum);
}

// A subdomain's float layout and CPML view (no psi or tables: geometry only), as an engine sets
// them up.
FieldLayout subdomain_layout(const Deck& deck, const SlabSubdomain& sub) {
  return FieldLayout::make(deck.grid.nx + 1, deck.grid.ny + 1, sub.stored_planes, sub.ghost, 4);
}
CpmlView<float> subdomain_cpml(const Deck& deck, const SlabSubdomain& sub, const FieldLayout& L) {
  const auto faces = make_cpml_setup<float>(deck, 1e-12, L, sub.k_begin);
  CpmlView<float> view;
  view.faces = static_cast<int>(faces.size());
  for (std::size_t f = 0; f < faces.size(); ++f) view.face[f] = faces[f].geometry;
  set_cpml_interior(view);
  return view;
}

// The fused sweeps (cuda engine, coop kernel) skip nodes inside cpml_interior with one test:
// no such node may lie in a face's box; and every node outside it must lie in one. Checked for
// every node a sweep visits in each subdomain of a 4-way split (z slabs cut by subdomain boundaries) and
// for a deck with CPML on some faces only.
TEST(Cpml, InteriorBoxHoldsExactlyTheNodesOfNoSlab) {
  Deck partial = testing::cpml_contract_deck();
  partial.boundary = {BoundaryKind::cpml, BoundaryKind::pec,  BoundaryKind::pec,
                      BoundaryKind::cpml, BoundaryKind::cpml, BoundaryKind::pec};
  for (const Deck& deck : {testing::cpml_contract_deck(), partial}) {
    const SlabDecomposition split(deck.grid, 4, 2);
    for (int s = 0; s < split.size(); ++s) {
      const SlabSubdomain& sub = split.subdomain(s);
      const FieldLayout L = subdomain_layout(deck, sub);
      const CpmlView<float> view = subdomain_cpml(deck, sub, L);
      // Every node a sweep may visit: local planes inside the update planes [0, nz), ghosts included.
      for (Index k = std::max(-L.origin_z, -sub.k_begin);
           k < std::min(L.nodes_z + L.origin_z, deck.grid.nz - sub.k_begin); ++k)
        for (Index j = 0; j < deck.grid.ny; ++j)
          for (Index i = 0; i < deck.grid.nx; ++i) {
            bool in_face = false;
            for (int f = 0; f < view.faces; ++f) in_face = in_face || view.face[f].contains(i, j, k);
            const bool inside = i >= view.interior[0] && i < view.interior[1] && j >= view.interior[2] &&
                                j < view.interior[3] && k >= view.interior[4] && k < view.interior[5];
            ASSERT_NE(inside, in_face) << "node " << i << "," << j << "," << k << " of subdomain " << s;
            // update_cell_with_cpml tests only the coordinate along each face's axis.
            const Index at[3] = {i, j, k};
            for (int f = 0; f < view.faces; ++f) {
              const CpmlSlab<float>& slab = view.slab[view.face[f].axis][view.face[f].upper ? 1 : 0];
              const Index x = at[view.face[f].axis];
              ASSERT_EQ(x >= slab.begin && x < slab.begin + slab.count, view.face[f].contains(i, j, k))
                  << "face " << f << ", node " << i << "," << j << "," << k << " of subdomain " << s;
            }
          }
    }
  }
}

// The cuda engine's split sweep (kernels/cpml.hpp, cpml_split): for every range a backend may
// sweep (whole subdomains, border planes, odd boxes), with and without cores and whole rows, the
// plain box and the shell boxes hold every node of the range exactly once, the plain box no node
// of a face outside its plain_axes (none, or x with whole rows), a shell box none of a face
// outside its axes, and the plain box's x bounds sit on sector boundaries unless they are the
// range's own (with whole rows they are the range's own).
TEST(Cpml, SplitSweepPartitionsEveryRange) {
  Deck partial = testing::cpml_contract_deck();
  partial.boundary = {BoundaryKind::cpml, BoundaryKind::pec,  BoundaryKind::pec,
                      BoundaryKind::cpml, BoundaryKind::cpml, BoundaryKind::pec};
  Deck none = testing::cpml_contract_deck();
  none.boundary = {BoundaryKind::pec, BoundaryKind::pec, BoundaryKind::pec,
                   BoundaryKind::pec, BoundaryKind::pec, BoundaryKind::cpml};
  int plain_nodes = 0, split_with_cores = 0, plain_x_face_nodes = 0;
  for (const Deck& deck : {testing::cpml_contract_deck(), partial, none}) {
    const SlabDecomposition split(deck.grid, 3, 2);
    for (int s = 0; s < split.size(); ++s) {
      const SlabSubdomain& sub = split.subdomain(s);
      const FieldLayout L = subdomain_layout(deck, sub);
      const CpmlView<float> view = subdomain_cpml(deck, sub, L);
      const Index nx = deck.grid.nx, ny = deck.grid.ny, nz = sub.k_end - sub.k_begin;
      const NodeRange ranges[] = {{0, nx, 0, ny, 0, nz},     {0, nx, 0, ny, 0, 1},          {0, nx, 0, ny, nz - 1, nz},
                                  {0, nx, 0, ny, 1, nz - 1}, {3, nx - 2, 1, ny - 5, 2, nz}, {0, 5, 0, ny, 0, nz}};
      for (const NodeRange& r : ranges)
        for (Index align : {Index(8), Index(4), Index(1)})
          for (const bool cores : {false, true})
            for (const bool rows : {false, true}) {
              const CpmlSplit cut = cpml_split(view, r, align, cores, rows);
              if (cores && !cut.plain.empty()) ++split_with_cores;
              if (cut.plain.i0 != r.i0 && !cut.plain.empty()) EXPECT_EQ(cut.plain.i0 % align, 0);
              if (cut.plain.i1 != r.i1 && !cut.plain.empty()) EXPECT_EQ(cut.plain.i1 % align, 0);
              if (rows && !cut.plain.empty()) EXPECT_TRUE(cut.plain.i0 == r.i0 && cut.plain.i1 == r.i1);
              if (!rows) EXPECT_EQ(cut.plain_axes, 0);
              std::vector<int> visits(static_cast<std::size_t>(r.count()), 0);
              const auto visit = [&](const NodeRange& box, bool plain, int axes) {
                for (Index k = box.k0; k < box.k1; ++k)
                  for (Index j = box.j0; j < box.j1; ++j)
                    for (Index i = box.i0; i < box.i1; ++i) {
                      ASSERT_TRUE(i >= r.i0 && i < r.i1 && j >= r.j0 && j < r.j1 && k >= r.k0 && k < r.k1);
                      const Index at = ((k - r.k0) * (r.j1 - r.j0) + (j - r.j0)) * (r.i1 - r.i0) + (i - r.i0);
                      ++visits[static_cast<std::size_t>(at)];
                      if (!plain) {  // a shell box meets only the faces of its axes
                        for (int f = 0; f < view.faces; ++f)
                          if (!(axes >> view.face[f].axis & 1))
                            ASSERT_FALSE(view.face[f].contains(i, j, k)) << "shell node " << i << "," << j << "," << k;
                        continue;
                      }
                      ++plain_nodes;
                      for (int f = 0; f < view.faces; ++f) {
                        if (!view.face[f].contains(i, j, k)) continue;
                        ASSERT_TRUE(cut.plain_axes >> view.face[f].axis & 1)
                            << "plain node " << i << "," << j << "," << k;
                        ++plain_x_face_nodes;
                      }
                    }
              };
              visit(cut.plain, true, 0);
              for (int b = 0; b < cut.shells; ++b) visit(cut.shell[b], false, cut.axes[b]);
              for (int v : visits) ASSERT_EQ(v, 1) << "subdomain " << s;
              EXPECT_EQ(cut.cores, cores && !cut.plain.empty());
            }
    }
  }
  EXPECT_GT(plain_nodes, 0);
  EXPECT_GT(split_with_cores, 0);
  EXPECT_GT(plain_x_face_nodes, 0);
}

// The cuda engine's split sweep, run on the CPU: the plain box gets the main update only, the
// shell boxes update_cell_with_cpml (kernels/cpml.hpp: main update and corrections in registers);
// against the host engine (which the tests below hold to the separate pass). Bit for bit, which
// is what lets every engine layout and backend agree.
template <typename Real>
void expect_fused_equals_separate_pass(bool cores, bool whole_rows = false, bool lean = false) {
  const Deck deck = testing::cpml_contract_deck();
  testing::SteppedModel<Real> separate(deck, "host"), fused(deck, "host");
  const EngineSetup<Real> setup = make_engine_setup<Real>(fused.model, 0, deck.grid.nz + 1, 1, 1);
  Engine<Real>& e = *fused.engine;
  const FieldLayout& L = e.layout();
  const FieldPointers<Real> f{e.field_data(Component::Ex), e.field_data(Component::Ey), e.field_data(Component::Ez),
                              e.field_data(Component::Hx), e.field_data(Component::Hy), e.field_data(Component::Hz)};
  const CpmlView<Real> view = e.cpml();
  ASSERT_EQ(view.faces, 6);
  // Align 1: this 18-node-wide deck has no sector-aligned interior (the partition test covers
  // the alignment; the bits do not depend on it).
  const CpmlSplit cut = cpml_split(view, fused.update, 1, cores, whole_rows);
  ASSERT_FALSE(cut.plain.empty());
  ASSERT_EQ(cut.cores, cores);
  ASSERT_EQ(cut.plain_axes, whole_rows ? 1 : 0);
  // axes: the plain box's plain_axes (0: the main update; 1: whole rows, every node the x path,
  // which the cuda kernel takes in its warps that meet an x face), else the shell box's (the
  // kernel instantiated for it).
  const auto sweep_box = [&](auto update_h, const NodeRange& r, int axes) {
    constexpr bool h = decltype(update_h)::value;
    for (Index k = r.k0; k < r.k1; ++k)
      for (Index j = r.j0; j < r.j1; ++j)
        for (Index i = r.i0; i < r.i1; ++i) {
          const Index c = L.offset(i, j, k);
          const CellCoefficients<Real>& m = setup.classes[setup.material_class[c]];
          if (axes == 1)
            update_cell_with_cpml<Real, h, 1>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
          else if (axes == 2)
            update_cell_with_cpml<Real, h, 2>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
          else if (axes == 3)
            update_cell_with_cpml<Real, h, 3>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
          else if (axes == 4)
            update_cell_with_cpml<Real, h, 4>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
          else if (axes == 5)
            update_cell_with_cpml<Real, h, 5>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
          else if (axes == 7)
            update_cell_with_cpml<Real, h, 7>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
          else if constexpr (h)
            update_h_cell(f, c, L.pitch_y, L.pitch_z, m);
          else
            update_e_cell(f, c, L.pitch_y, L.pitch_z, m);
        }
  };
  const auto sweep = [&](auto update_h) {
    sweep_box(update_h, cut.plain, cut.plain_axes);
    for (int b = 0; b < cut.shells; ++b) sweep_box(update_h, cut.shell[b], cut.axes[b]);
  };
  // coop's way: every node of the update range through update_cell_with_cpml's Lean form (each
  // face's values loaded after the main update), the faces found by the node's coordinates.
  const auto sweep_lean = [&](auto update_h) {
    constexpr bool h = decltype(update_h)::value;
    const NodeRange& r = fused.update;
    for (Index k = r.k0; k < r.k1; ++k)
      for (Index j = r.j0; j < r.j1; ++j)
        for (Index i = r.i0; i < r.i1; ++i) {
          const Index c = L.offset(i, j, k);
          update_cell_with_cpml<Real, h, 7, true>(view, f, c, i, j, k, L.pitch_y, L.pitch_z,
                                                  setup.classes[setup.material_class[c]]);
        }
  };
  for (Index n = 0; n < *deck.steps; ++n) {
    separate.step(n);
    if (lean) {
      sweep_lean(std::true_type{});
      sweep_lean(std::false_type{});
    } else {
      sweep(std::true_type{});
      sweep(std::false_type{});
    }
    e.inject_sources(n);
  }
  for (Component c : kAllComponents) EXPECT_EQ(fused.field(c), separate.field(c)) << component_name(c);
}

TEST(Cpml, FusedCorrectionEqualsSeparatePassFloat32) { expect_fused_equals_separate_pass<float>(false); }
TEST(Cpml, FusedCorrectionEqualsSeparatePassFloat64) { expect_fused_equals_separate_pass<double>(false); }
// The same with the z and y boxes cut into single-axis cores and strips (cpml_split's cores).
TEST(Cpml, FusedCorrectionWithCoresEqualsSeparatePassFloat32) { expect_fused_equals_separate_pass<float>(true); }
TEST(Cpml, FusedCorrectionWithCoresEqualsSeparatePassFloat64) { expect_fused_equals_separate_pass<double>(true); }
// And with whole rows in the plain box (cpml_split's whole_rows, the cuda engine's in float).
TEST(Cpml, FusedCorrectionWithWholeRowsEqualsSeparatePassFloat32) {
  expect_fused_equals_separate_pass<float>(true, true);
}
TEST(Cpml, FusedCorrectionWithWholeRowsEqualsSeparatePassFloat64) {
  expect_fused_equals_separate_pass<double>(true, true);
}
// And coop's: the Lean form over the whole update range.
TEST(Cpml, LeanFusedCorrectionEqualsSeparatePassFloat32) {
  expect_fused_equals_separate_pass<float>(false, false, true);
}
TEST(Cpml, LeanFusedCorrectionEqualsSeparatePassFloat64) {
  expect_fused_equals_separate_pass<double>(false, false, true);
}

// sum over nodes of eps E^2 + mu H^2 (H of the half step: enough to see the decay).
double field_energy(testing::SteppedModel<double>& s) {
  double total = 0;
  const FieldLayout& L = s.engine->layout();
  for (Component c : kAllComponents) {
    const auto v = s.field(c);
    const double weight = is_electric(c) ? kEps0 : kMu0;
    for (Index k = s.range.k0; k < s.range.k1; ++k)
      for (Index j = s.range.j0; j < s.range.j1; ++j)
        for (Index i = s.range.i0; i < s.range.i1; ++i) total += weight * v[L.offset(i, j, k)] * v[L.offset(i, j, k)];
  }
  return total;
}

// A pulse in a CPML box: the energy peaks while the source radiates, then leaves through the
// walls. With PEC walls it would stay.
// The host engine's sweep, which corrects a row's CPML segments node by node in registers
// (kernels/host/host_engine.cpp), against the order that defines the bits: the main update of every
// node of the range, then a separate pass of cpml_correct over them. Bit for bit.
template <typename Real>
void expect_host_engine_equals_separate_pass(const Deck& deck) {
  testing::SteppedModel<Real> host(deck, "host"), separate(deck, "host");
  const EngineSetup<Real> setup = make_engine_setup<Real>(separate.model, 0, deck.grid.nz + 1, 1, 1);
  Engine<Real>& e = *separate.engine;
  const FieldLayout& L = e.layout();
  const FieldPointers<Real> f{e.field_data(Component::Ex), e.field_data(Component::Ey), e.field_data(Component::Ez),
                              e.field_data(Component::Hx), e.field_data(Component::Hy), e.field_data(Component::Hz)};
  const CpmlView<Real> view = e.cpml();
  ASSERT_GT(view.faces, 0);
  const NodeRange& r = separate.update;
  const auto phase = [&](auto update_h) {
    constexpr bool h = decltype(update_h)::value;
    for (const bool correction : {false, true})
      for (Index k = r.k0; k < r.k1; ++k)
        for (Index j = r.j0; j < r.j1; ++j)
          for (Index i = r.i0; i < r.i1; ++i) {
            const Index c = L.offset(i, j, k);
            const CellCoefficients<Real>& m = setup.classes[setup.material_class[c]];
            if (correction)
              cpml_correct<Real, h>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
            else if constexpr (h)
              update_h_cell(f, c, L.pitch_y, L.pitch_z, m);
            else
              update_e_cell(f, c, L.pitch_y, L.pitch_z, m);
          }
  };
  for (Index n = 0; n < *deck.steps; ++n) {
    host.step(n);
    phase(std::true_type{});
    phase(std::false_type{});
    e.inject_sources(n);
  }
  for (Component c : kAllComponents) EXPECT_EQ(host.field(c), separate.field(c)) << component_name(c);
}

// The contract deck with a dielectric block that enters the x_min, y_min and z_min slabs part of
// the way along x: rows of mixed classes inside the slabs, on both sides of a face's inner edge.
Deck cpml_deck_with_mixed_rows() {
  Deck d = testing::cpml_contract_deck();
  d.materials.push_back({"block", 3.0, 0.0, 1.0, false});
  d.geometry.push_back({ShapeKind::box, "block", {0, 0, 0}, {9e-3, 12e-3, 16e-3}});
  return d;
}

TEST(Cpml, HostEngineEqualsSeparatePassFloat32) {
  expect_host_engine_equals_separate_pass<float>(cpml_deck_with_mixed_rows());
}
TEST(Cpml, HostEngineEqualsSeparatePassFloat64) {
  expect_host_engine_equals_separate_pass<double>(cpml_deck_with_mixed_rows());
}
TEST(Cpml, HostEngineEqualsSeparatePassSomeFaces) {
  Deck d = cpml_deck_with_mixed_rows();
  d.boundary = {BoundaryKind::pec, BoundaryKind::cpml, BoundaryKind::cpml,
                BoundaryKind::pec, BoundaryKind::pec,  BoundaryKind::cpml};
  expect_host_engine_equals_separate_pass<float>(d);
}

TEST(Cpml, EnergyLeavesTheBoxAfterThePulse) {
  CpmlReflectionOptions small;
  small.cpml.cells = 6;
  small.interior = 12;
  Deck d = cpml_reflection_deck(small, false);
  d.steps = 300;
  testing::SteppedModel<double> s(d, "host");
  double peak = 0, last = 0;
  for (Index n = 0; n < 300; ++n) {
    s.step(n);
    if (n % 30 == 29) {
      last = field_energy(s);
      peak = std::max(peak, last);
    }
  }
  EXPECT_GT(peak, 0.0);
  std::printf("energy after 300 steps: %.2e of its peak\n", last / peak);
  EXPECT_LT(last, 1e-4 * peak) << "energy left after 300 steps, relative to its peak";
}

}  // namespace
}  // namespace yeex
