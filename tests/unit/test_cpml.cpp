// CPML (kernels/cpml.hpp) on the host engine: the reflection of a 10-cell CPML against a
// large-domain reference, the bitwise contract with CPML slabs crossing subdomain boundaries
// (host-staged and B+2R, whose ghost planes carry the slabs' psi), and the energy leaving the box.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "src/solver/cpml_reflection.hpp"
#include "src/solver/cpml_setup.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/engine_fixture.hpp"

namespace yeex {
namespace {

TEST(Cpml, TenCellsReflectLessThanMinus60Decibels) {
  const CpmlReflection r = measure_cpml_reflection();
  std::printf("CPML reflection: %.1f dB (10 cells, %lld^3 box against %lld^3, %lld steps, probe %.0f mm from the "
              "source, Ricker %.1f GHz; max |diff| %.3g of max |E| %.3g V/m)\n",
              r.db, static_cast<long long>(r.small_cells), static_cast<long long>(r.reference_cells),
              static_cast<long long>(r.steps), r.probe_distance * 1e3, r.frequency / 1e9, r.max_difference,
              r.max_reference);
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

// Slabs of 7 cells on every face; nz = 22 puts the z-slabs at [0, 7) and [15, 22), so 4
// subdomains (planes 0-6, 6-12, 12-17, 17-22) have boundaries inside both. A lossy half-space
// runs into the lower z slab and the x and y slabs; sources and probes in several subdomains.
Deck cpml_contract_deck() {
  Deck d;
  d.grid = {18, 19, 22};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 45;
  d.boundary.fill(BoundaryKind::cpml);
  d.cpml.cells = 7;
  d.materials.push_back({"soil", 6.0, 0.05, 1.0, false});
  d.geometry.push_back({ShapeKind::box, "soil", {0, 0, 0}, {18e-3, 19e-3, 10e-3}});
  for (double z : {8e-3, 11e-3, 13e-3}) {
    Source s;
    s.position = {9e-3, 9e-3, z};
    s.polarisation = z < 10e-3 ? 2 : 0;
    s.waveform = WaveformKind::ricker;
    s.frequency = 60e9;
    d.sources.push_back(s);
  }
  d.probes.push_back({"low", {9e-3, 9e-3, 3e-3}, {Component::Ez, Component::Hx}});
  d.probes.push_back({"mid", {8e-3, 10e-3, 12e-3}, {Component::Ex, Component::Hy}});
  d.probes.push_back({"top", {2e-3, 17e-3, 19e-3}, {Component::Ey, Component::Hz}});
  return d;
}

template <typename Real>
RunResult run_cpml(int subdomains, const std::string& exchange, Index depth, const Deck& deck = cpml_contract_deck()) {
  RunConfig config;
  config.precision_bits = 8 * sizeof(Real);
  config.subdomains = subdomains;
  config.exchange = exchange;
  config.halo_depth = depth;
  config.probe_slots = 16;
  return run_model(build_model(deck), config);
}

template <typename Real>
void expect_cpml_identical_to_one_slab(int subdomains, const std::string& exchange, Index depth) {
  const RunResult reference = run_cpml<Real>(1, "host-staged", 1);
  const RunResult split = run_cpml<Real>(subdomains, exchange, depth);
  EXPECT_EQ(split.subdomains, subdomains);
  EXPECT_EQ(split.checksum, reference.checksum);
  for (std::size_t c = 0; c < kComponentCount; ++c)
    EXPECT_EQ(split.component_checksums[c], reference.component_checksums[c]) << component_name(Component(c));
  ASSERT_EQ(split.probes.probes.size(), reference.probes.probes.size());
  for (std::size_t p = 0; p < split.probes.probes.size(); ++p)
    EXPECT_EQ(split.probes.probes[p].series, reference.probes.probes[p].series) << split.probes.probes[p].name;
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
  Deck partial = cpml_contract_deck();
  partial.boundary = {BoundaryKind::cpml, BoundaryKind::pec, BoundaryKind::pec,
                      BoundaryKind::cpml, BoundaryKind::pec, BoundaryKind::cpml};
  const RunResult reference = run_cpml<float>(1, "host-staged", 1, partial);
  for (const auto& [n, exchange, depth] : {std::tuple{3, "host-staged", 1}, std::tuple{4, "b2r", 3}}) {
    const RunResult split = run_cpml<float>(n, exchange, depth, partial);
    EXPECT_EQ(split.checksum, reference.checksum) << exchange << " on " << n << " slabs";
    for (std::size_t p = 0; p < split.probes.probes.size(); ++p)
      EXPECT_EQ(split.probes.probes[p].series, reference.probes.probes[p].series) << split.probes.probes[p].name;
  }
}

// The CPML must make a difference (else the contract above would hold trivially): the probes
// differ from the same deck with PEC walls.
TEST(Cpml, ChangesTheFieldsAgainstPec) {
  Deck pec = cpml_contract_deck();
  pec.boundary.fill(BoundaryKind::pec);
  RunConfig config;
  const RunResult with = run_model(build_model(cpml_contract_deck()), config);
  const RunResult without = run_model(build_model(pec), config);
  EXPECT_NE(with.checksum, without.checksum);
}

// The fused sweeps (cuda engine, coop kernel) skip nodes inside cpml_interior with one test:
// no such node may lie in a face's box; and every node outside it must lie in one. Checked for
// every node a sweep visits in each subdomain of a 4-way split (z slabs cut by subdomain boundaries) and
// for a deck with CPML on some faces only.
TEST(Cpml, InteriorBoxHoldsExactlyTheNodesOfNoSlab) {
  Deck partial = cpml_contract_deck();
  partial.boundary = {BoundaryKind::cpml, BoundaryKind::pec, BoundaryKind::pec,
                      BoundaryKind::cpml, BoundaryKind::cpml, BoundaryKind::pec};
  for (const Deck& deck : {cpml_contract_deck(), partial}) {
    const SlabDecomposition split(deck.grid, 4, 2);
    for (int s = 0; s < split.size(); ++s) {
      const SlabSubdomain& sub = split.subdomain(s);
      const FieldLayout L = FieldLayout::make(deck.grid.nx + 1, deck.grid.ny + 1, sub.stored_planes, sub.ghost, 4);
      const auto faces = make_cpml_setup<float>(deck, 1e-12, L, sub.k_begin);
      CpmlView<float> view;
      view.faces = static_cast<int>(faces.size());
      for (std::size_t f = 0; f < faces.size(); ++f) view.face[f] = faces[f].geometry;
      set_cpml_interior(view);
      // Every node a sweep may visit: local planes inside the update planes [0, nz), ghosts included.
      for (Index k = std::max(-L.origin_z, -sub.k_begin); k < std::min(L.nodes_z + L.origin_z, deck.grid.nz - sub.k_begin); ++k)
        for (Index j = 0; j < deck.grid.ny; ++j)
          for (Index i = 0; i < deck.grid.nx; ++i) {
            bool in_face = false;
            for (int f = 0; f < view.faces; ++f) in_face = in_face || view.face[f].contains(i, j, k);
            const bool inside = i >= view.interior[0] && i < view.interior[1] && j >= view.interior[2] &&
                                j < view.interior[3] && k >= view.interior[4] && k < view.interior[5];
            ASSERT_NE(inside, in_face) << "node " << i << "," << j << "," << k << " of subdomain " << s;
          }
    }
  }
}

// The split sweep of the cuda engine (kernels/cpml.hpp): over every range a sweep or backend may
// hand it, interior and shell together visit each node exactly once, the interior holds no slab
// node, and every shell block's threads map as the kernel maps them. A deck with CPML on every
// face (x interior empty after the sector rounding), one wide enough for an x interior, one with
// some faces only; whole update ranges of a 4-way split, B+2R's grown ranges, single planes (the
// overlap backend's border lane) and odd boxes.
template <typename Real>
void expect_split_covers_once(const CpmlView<Real>& view, const NodeRange& r, const std::string& what) {
  const CpmlShell shell = cpml_shell(view, r);
  const Index ni = r.i1 - r.i0, nj = r.j1 - r.j0;
  std::vector<int> visits(r.empty() ? 0 : r.count(), 0);
  const auto visit = [&](Index i, Index j, Index k) {
    ASSERT_TRUE(i >= r.i0 && i < r.i1 && j >= r.j0 && j < r.j1 && k >= r.k0 && k < r.k1)
        << what << ": node " << i << "," << j << "," << k << " outside the range";
    ++visits[((k - r.k0) * nj + (j - r.j0)) * ni + (i - r.i0)];
  };
  const NodeRange& in = shell.interior;
  if (!in.empty()) {
    const Index sector = 32 / Index(sizeof(Real));
    EXPECT_TRUE((in.i0 == r.i0 || in.i0 % sector == 0) && (in.i1 == r.i1 || in.i1 % sector == 0))
        << what << ": interior x [" << in.i0 << "," << in.i1 << ") not on sectors";
    for (Index k = in.k0; k < in.k1; ++k)
      for (Index j = in.j0; j < in.j1; ++j)
        for (Index i = in.i0; i < in.i1; ++i) {
          for (int f = 0; f < view.faces; ++f)
            ASSERT_FALSE(view.face[f].contains(i, j, k)) << what << ": interior node " << i << "," << j << "," << k;
          visit(i, j, k);
        }
  }
  ASSERT_LE(shell.boxes, kCpmlShellBoxes);
  for (int b = 0; b < shell.boxes; ++b) {
    const CpmlShellBox& box = shell.box[b];
    EXPECT_LE(box.tile_x * box.tile_rows, kCpmlShellBlock) << what;
    EXPECT_GT(box.tile_x * box.tile_rows, kCpmlShellBlock / 2) << what << ": a tile of box " << b << " wastes threads";
  }
  for (unsigned block = 0; block < shell.blocks; ++block)
    for (unsigned thread = 0; thread < kCpmlShellBlock; ++thread) {
      Index i = 0, j = 0, k = 0;
      if (cpml_shell_node(shell, block, thread, i, j, k)) visit(i, j, k);
    }
  for (std::size_t n = 0; n < visits.size(); ++n)
    ASSERT_EQ(visits[n], 1) << what << ": node " << r.i0 + Index(n) % ni << "," << r.j0 + Index(n) / ni % nj << ","
                            << r.k0 + Index(n) / ni / nj;
}

Deck cpml_wide_deck() {  // x interior [7, 33), [8, 32) once aligned to sectors
  Deck d = cpml_contract_deck();
  d.grid.nx = 40;
  return d;
}

template <typename Real>
void expect_split_covers_every_range() {
  Deck partial = cpml_contract_deck();
  partial.boundary = {BoundaryKind::cpml, BoundaryKind::pec, BoundaryKind::pec,
                      BoundaryKind::cpml, BoundaryKind::cpml, BoundaryKind::pec};
  for (const Deck& deck : {cpml_contract_deck(), cpml_wide_deck(), partial}) {
    const SlabDecomposition split(deck.grid, 4, 3);
    for (int s = 0; s < split.size(); ++s) {
      const SlabSubdomain& sub = split.subdomain(s);
      const FieldLayout L =
          FieldLayout::make(deck.grid.nx + 1, deck.grid.ny + 1, sub.stored_planes, sub.ghost, sizeof(Real));
      const auto faces = make_cpml_setup<Real>(deck, 1e-12, L, sub.k_begin);
      CpmlView<Real> view;
      view.faces = static_cast<int>(faces.size());
      for (std::size_t f = 0; f < faces.size(); ++f) view.face[f] = faces[f].geometry;
      set_cpml_interior(view);
      std::vector<NodeRange> ranges;
      for (Index R = 1; R <= 3; ++R)
        for (Index t = 0; t < R; ++t) {
          const SweepRanges u = update_ranges(split, s, R, t);
          ranges.push_back(split.to_local(s, u.h));
          ranges.push_back(split.to_local(s, u.e));
        }
      const NodeRange whole = split.to_local(s, update_ranges(split, s, 1, 0).h);
      for (Index k = whole.k0; k < whole.k1; ++k) ranges.push_back({whole.i0, whole.i1, whole.j0, whole.j1, k, k + 1});
      ranges.push_back({3, 17, 2, 19, whole.k0, whole.k1});  // odd boxes, ending inside slabs or not
      ranges.push_back({9, 10, 0, 5, whole.k0, whole.k0 + 2});
      ranges.push_back({0, deck.grid.nx + 1, 0, deck.grid.ny + 1, whole.k0, whole.k1});  // all nodes, inert ones too
      ranges.push_back({});                                                              // empty
      for (const NodeRange& r : ranges)
        expect_split_covers_once(view, r,
                                 "subdomain " + std::to_string(s) + " range [" + std::to_string(r.i0) + "," +
                                     std::to_string(r.i1) + ")x[" + std::to_string(r.j0) + "," + std::to_string(r.j1) +
                                     ")x[" + std::to_string(r.k0) + "," + std::to_string(r.k1) + ")");
    }
  }
}

TEST(Cpml, SplitSweepCoversEveryNodeOnceFloat32) { expect_split_covers_every_range<float>(); }
TEST(Cpml, SplitSweepCoversEveryNodeOnceFloat64) { expect_split_covers_every_range<double>(); }

// At 512^3 with 10 cells: the interior starts on a sector, the packed x box is one full warp
// wide in f32, the y slabs take 64 x 2 tiles, and the shell is five boxes (what the comments in
// kernels/cpml.hpp count).
TEST(Cpml, SplitSweepAt512) {
  CpmlView<float> view;
  view.faces = 6;
  for (int f = 0; f < 6; ++f) {
    CpmlFace<float>& face = view.face[f];
    face.axis = f / 2;
    face.upper = f % 2 == 1;
    face.ni = face.nj = face.nk = 513;
    Index& lo = face.axis == 0 ? face.i0 : face.axis == 1 ? face.j0 : face.k0;
    Index& n = face.axis == 0 ? face.ni : face.axis == 1 ? face.nj : face.nk;
    lo = face.upper ? 502 : 0;
    n = 10;
  }
  set_cpml_interior(view);
  const CpmlShell shell = cpml_shell(view, NodeRange{0, 512, 0, 512, 0, 512});
  EXPECT_EQ(shell.interior.i0, 16);
  EXPECT_EQ(shell.interior.i1, 496);
  EXPECT_EQ(shell.interior.count(), Index(480) * 492 * 492);
  ASSERT_EQ(shell.boxes, 5);
  EXPECT_EQ(shell.box[4].width, 32u);
  EXPECT_EQ(shell.box[4].tile_x, 32u);
  EXPECT_EQ(shell.box[4].gap, 480);
  EXPECT_EQ(shell.box[0].tile_x, 32u);  // z slabs: 512 rows
  EXPECT_EQ(shell.box[0].tile_rows, 4u);
  EXPECT_EQ(shell.box[2].tile_x, 64u);  // y slabs: 10 rows
  EXPECT_EQ(shell.box[2].tile_rows, 2u);
  EXPECT_EQ(shell.blocks, 2 * 16u * 128 * 10 + 2 * 8u * 5 * 492 + 123u * 492);
}

// The GPU kernels' per-node code run on the CPU, against the host engine's separate pass, bit
// for bit (which is what lets every engine layout and backend agree): the coop kernel's fused
// sweep (every node's main update immediately followed by cpml_correct), and the cuda engine's
// split sweep (the interior box with the main update only, then the shell blocks and threads as
// the kernel maps them, main update then cpml_correct_faces).
template <typename Real>
void expect_gpu_sweeps_equal_separate_pass(const Deck& deck, bool split) {
  testing::SteppedModel<Real> separate(deck, "host"), gpu(deck, "host");
  const EngineSetup<Real> setup = make_engine_setup<Real>(gpu.model, 0, deck.grid.nz + 1, 1, 1);
  Engine<Real>& e = *gpu.engine;
  const FieldLayout& L = e.layout();
  const FieldPointers<Real> f{e.field_data(Component::Ex), e.field_data(Component::Ey), e.field_data(Component::Ez),
                              e.field_data(Component::Hx), e.field_data(Component::Hy), e.field_data(Component::Hz)};
  const CpmlView<Real> view = e.cpml();
  ASSERT_EQ(view.faces, 6);
  const NodeRange r = gpu.update;
  const CpmlShell shell = cpml_shell(view, r);
  if (split) ASSERT_FALSE(shell.interior.empty());
  const auto sweep = [&](auto update_h) {
    constexpr bool H = decltype(update_h)::value;
    const auto node = [&](Index i, Index j, Index k, int corrections) {
      const Index c = L.offset(i, j, k);
      const CellCoefficients<Real>& m = setup.classes[setup.material_class[c]];
      if constexpr (H)
        update_h_cell(f, c, L.pitch_y, L.pitch_z, m);
      else
        update_e_cell(f, c, L.pitch_y, L.pitch_z, m);
      if (corrections == 1) cpml_correct<Real, H>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
      if (corrections == 2) cpml_correct_faces<Real, H>(view, f, c, i, j, k, L.pitch_y, L.pitch_z, m);
    };
    const NodeRange& box = split ? shell.interior : r;
    for (Index k = box.k0; k < box.k1; ++k)
      for (Index j = box.j0; j < box.j1; ++j)
        for (Index i = box.i0; i < box.i1; ++i) node(i, j, k, split ? 0 : 1);
    if (split)
      for (unsigned block = 0; block < shell.blocks; ++block)
        for (unsigned thread = 0; thread < kCpmlShellBlock; ++thread) {
          Index i = 0, j = 0, k = 0;
          if (cpml_shell_node(shell, block, thread, i, j, k)) node(i, j, k, 2);
        }
  };
  for (Index n = 0; n < *deck.steps; ++n) {
    separate.step(n);
    sweep(std::true_type{});
    sweep(std::false_type{});
    e.inject_sources(n);
  }
  for (Component c : kAllComponents) EXPECT_EQ(gpu.field(c), separate.field(c)) << component_name(c);
}

TEST(Cpml, FusedCorrectionEqualsSeparatePassFloat32) {
  expect_gpu_sweeps_equal_separate_pass<float>(cpml_contract_deck(), false);
}
TEST(Cpml, FusedCorrectionEqualsSeparatePassFloat64) {
  expect_gpu_sweeps_equal_separate_pass<double>(cpml_contract_deck(), false);
}
TEST(Cpml, SplitSweepEqualsSeparatePassFloat32) {
  expect_gpu_sweeps_equal_separate_pass<float>(cpml_wide_deck(), true);
}
TEST(Cpml, SplitSweepEqualsSeparatePassFloat64) {
  expect_gpu_sweeps_equal_separate_pass<double>(cpml_wide_deck(), true);
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
