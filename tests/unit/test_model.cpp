// The model builder: material classes per node (boxes, spheres and cylinders, each component at
// its own staggered position), the pinned components of a PEC box, sources and probes mapped to
// nodes, checksums that chain over z-slabs; the rounded sizes of large device arrays the memory
// estimate counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>

#include "kernels/field_layout.hpp"
#include "src/solver/field_stats.hpp"
#include "src/solver/solver.hpp"
#include "tests/support/engine_fixture.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

Deck small_deck() {
  Deck d;
  d.grid = {8, 6, 5};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 10;
  d.materials.push_back({"glass", 4.0, 0.0, 1.0, false});
  d.geometry.push_back({ShapeKind::box, "glass", {2e-3, 0, 0}, {4e-3, 6e-3, 5e-3}});
  d.geometry.push_back({ShapeKind::box, "pec", {6e-3, 2e-3, 2e-3}, {7e-3, 3e-3, 3e-3}});
  return d;
}

// FieldLayout::node inverts offset() over every node an engine sweeps, ghosts and pads' edges
// included, in float and double layouts with one and two ghost planes.
TEST(Model, LayoutNodeInvertsOffset) {
  for (const auto& [element, ghost] : {std::pair{sizeof(float), Index(1)}, std::pair{sizeof(double), Index(2)}}) {
    const FieldLayout L = FieldLayout::make(37, 5, 4, ghost, element);
    for (Index k = -L.origin_z; k < L.nodes_z + L.origin_z; ++k)
      for (Index j = -1; j <= L.nodes_y; ++j)
        for (Index i = -1; i <= L.nodes_x; ++i) {
          const FieldLayout::Node n = L.node(L.offset(i, j, k));
          ASSERT_EQ(n.i, i);
          ASSERT_EQ(n.j, j);
          ASSERT_EQ(n.k, k);
        }
  }
}

TEST(Model, PecFacesPinTangentialE) {
  const Model m = build_model(small_deck());
  const auto ex = [&](Index i, Index j, Index k) { return m.class_key(i, j, k)[int(Component::Ex)]; };
  EXPECT_EQ(ex(3, 0, 2), kPinned);  // on the y = 0 face
  EXPECT_EQ(ex(3, 6, 2), kPinned);  // on the y = ny face
  EXPECT_EQ(ex(8, 3, 2), kPinned);  // beyond the grid along x
  EXPECT_NE(ex(7, 3, 2), kPinned);
  EXPECT_EQ(m.class_key(0, 3, 2)[int(Component::Hx)], 0);  // normal H on x = 0 is live (free space)
  EXPECT_EQ(m.class_key(3, 6, 2)[int(Component::Hx)], kPinned);
}

TEST(Model, LaterObjectsWinAndEachComponentUsesItsOwnPosition) {
  const Model m = build_model(small_deck());
  const int glass = 2;
  // Ex(1,...) sits at x = 1.5 mm (outside glass), Ex(2,...) at 2.5 mm (inside).
  EXPECT_EQ(m.class_key(1, 3, 2)[int(Component::Ex)], 0);
  EXPECT_EQ(m.class_key(2, 3, 2)[int(Component::Ex)], glass);
  // Ey(2,...) sits at x = 2 mm: on the glass face counts as inside.
  EXPECT_EQ(m.class_key(2, 3, 2)[int(Component::Ey)], glass);
  // The PEC cube pins the E components inside it.
  EXPECT_EQ(m.class_key(6, 2, 2)[int(Component::Ex)], kPinned);
  EXPECT_EQ(m.class_key(6, 2, 2)[int(Component::Hz)], 1);  // H inside PEC keeps mu0
  EXPECT_EQ(m.classes.front(), (ClassKey{kPinned, kPinned, kPinned, kPinned, kPinned, kPinned}));
}

// Component c of node (i,j,k): its material id.
std::int16_t at(const Model& m, Component c, Index i, Index j, Index k) {
  return m.class_key(i, j, k)[static_cast<int>(c)];
}

// A 10 mm cube of 1 mm cells holding one object.
Deck deck_with(const GeometryObject& object) {
  Deck d;
  d.grid = {10, 10, 10};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 10;
  d.materials.push_back({"glass", 4.0, 0.0, 1.0, false});
  d.materials.push_back({"lossy", 2.0, 0.5, 1.0, false});
  d.geometry.push_back(object);
  return d;
}

GeometryObject sphere(const std::string& material, const Vec3& centre, double radius) {
  return {.shape = ShapeKind::sphere, .material = material, .centre = centre, .radius = radius};
}

GeometryObject cylinder(const std::string& material, int axis, const Vec3& centre, double radius, double lower,
                        double upper) {
  return {.shape = ShapeKind::cylinder,
          .material = material,
          .centre = centre,
          .radius = radius,
          .axis = axis,
          .axis_lower = lower,
          .axis_upper = upper};
}

constexpr std::int16_t kGlass = 2, kLossy = 3;

TEST(Model, SphereHoldsTheComponentsWithinItsRadius) {
  // Centre (5, 5, 5) mm, radius 1.5 mm; positions below are in mm.
  const Model m = build_model(deck_with(sphere("glass", {5e-3, 5e-3, 5e-3}, 1.5e-3)));
  using enum Component;
  EXPECT_EQ(at(m, Ex, 5, 5, 5), kGlass);  // (5.5, 5, 5): 0.5 from the centre
  EXPECT_EQ(at(m, Hz, 5, 5, 5), kGlass);  // (5.5, 5.5, 5): 0.71
  EXPECT_EQ(at(m, Hy, 4, 5, 4), kGlass);  // (4.5, 5, 4.5): 0.71
  // On the surface, 1.5 from the centre, along each axis and on both sides: inside.
  EXPECT_EQ(at(m, Ex, 6, 5, 5), kGlass);  // (6.5, 5, 5)
  EXPECT_EQ(at(m, Ex, 3, 5, 5), kGlass);  // (3.5, 5, 5)
  EXPECT_EQ(at(m, Ey, 5, 6, 5), kGlass);  // (5, 6.5, 5)
  EXPECT_EQ(at(m, Ez, 5, 5, 3), kGlass);  // (5, 5, 3.5)
  // Outside.
  EXPECT_EQ(at(m, Ex, 7, 5, 5), 0);  // (7.5, 5, 5): 2.5
  EXPECT_EQ(at(m, Ez, 5, 5, 2), 0);  // (5, 5, 2.5): 2.5
  // Within the radius along every axis (inside the bounding box), but not within the sphere.
  EXPECT_EQ(at(m, Ex, 6, 6, 5), 0);  // (6.5, 6, 5): 1.80
  EXPECT_EQ(at(m, Hz, 6, 6, 5), 0);  // (6.5, 6.5, 5): 2.12
  EXPECT_EQ(at(m, Hx, 5, 5, 6), 0);  // (5, 5.5, 6.5): 1.58
  // On the surface off the axes: Ez(6, 6, 5) at (6, 6, 5.5) is sqrt(1 + 1 + 0.25) = 1.5 away.
  EXPECT_EQ(at(m, Ez, 6, 6, 5), kGlass);
  EXPECT_EQ(at(m, Ez, 6, 6, 6), 0);  // (6, 6, 6.5): 2.06
}

TEST(Model, CylinderHoldsTheComponentsWithinItsRadiusAndExtent) {
  // Axis along z through (3, 4) mm, radius 2 mm, from z = 2 to 6 mm; the centre's z is unused.
  const Model m = build_model(deck_with(cylinder("lossy", 2, {3e-3, 4e-3, 0}, 2e-3, 2e-3, 6e-3)));
  using enum Component;
  EXPECT_EQ(at(m, Ez, 3, 4, 3), kLossy);  // (3, 4, 3.5): on the axis
  EXPECT_EQ(at(m, Ex, 4, 4, 4), kLossy);  // (4.5, 4, 4): 1.5 from the axis
  EXPECT_EQ(at(m, Hz, 3, 4, 4), kLossy);  // (3.5, 4.5, 4): 0.71
  // On the curved surface (2 from the axis) and on the end faces: inside.
  EXPECT_EQ(at(m, Ez, 5, 4, 3), kLossy);  // (5, 4, 3.5)
  EXPECT_EQ(at(m, Ez, 1, 4, 3), kLossy);  // (1, 4, 3.5)
  EXPECT_EQ(at(m, Ez, 3, 6, 3), kLossy);  // (3, 6, 3.5)
  EXPECT_EQ(at(m, Ex, 3, 4, 2), kLossy);  // (3.5, 4, 2): the lower end
  EXPECT_EQ(at(m, Ex, 3, 4, 6), kLossy);  // (3.5, 4, 6): the upper end
  // Outside: across the axis, and beyond the ends.
  EXPECT_EQ(at(m, Ez, 5, 5, 3), 0);       // (5, 5, 3.5): 2.24
  EXPECT_EQ(at(m, Hz, 4, 5, 3), 0);       // (4.5, 5.5, 3): 2.12, within 2 along x and y
  EXPECT_EQ(at(m, Ex, 3, 4, 1), 0);       // z = 1
  EXPECT_EQ(at(m, Ez, 3, 4, 6), 0);       // z = 6.5
  EXPECT_EQ(at(m, Hx, 3, 4, 6), 0);       // (3, 4.5, 6.5)
  EXPECT_EQ(at(m, Hx, 3, 4, 5), kLossy);  // (3, 4.5, 5.5)
}

TEST(Model, CylinderAxisCanBeXOrY) {
  using enum Component;
  // Along x through (y, z) = (5, 5) mm, radius 1 mm, over the whole grid.
  const Model x = build_model(deck_with(cylinder("glass", 0, {0, 5e-3, 5e-3}, 1e-3, 0, 10e-3)));
  EXPECT_EQ(at(x, Ex, 0, 5, 5), kGlass);  // (0.5, 5, 5)
  EXPECT_EQ(at(x, Ex, 9, 5, 5), kGlass);  // (9.5, 5, 5)
  EXPECT_EQ(at(x, Ex, 7, 6, 5), kGlass);  // (7.5, 6, 5): on the surface
  EXPECT_EQ(at(x, Hx, 7, 5, 5), kGlass);  // (7, 5.5, 5.5): 0.71
  EXPECT_EQ(at(x, Ey, 7, 5, 5), kGlass);  // (7, 5.5, 5): 0.5
  EXPECT_EQ(at(x, Ey, 7, 6, 5), 0);       // (7, 6.5, 5): 1.5
  EXPECT_EQ(at(x, Ez, 7, 6, 5), 0);       // (7, 6, 5.5): 1.12

  // Along y through (x, z) = (5, 5) mm, radius 1 mm, from y = 2 to 4 mm.
  const Model y = build_model(deck_with(cylinder("glass", 1, {5e-3, 0, 5e-3}, 1e-3, 2e-3, 4e-3)));
  EXPECT_EQ(at(y, Ey, 5, 2, 5), kGlass);  // (5, 2.5, 5)
  EXPECT_EQ(at(y, Ey, 5, 4, 5), 0);       // (5, 4.5, 5): beyond the upper end
  EXPECT_EQ(at(y, Ex, 5, 4, 5), kGlass);  // (5.5, 4, 5): on the upper end
  EXPECT_EQ(at(y, Hy, 5, 3, 5), kGlass);  // (5.5, 3, 5.5): 0.71
  EXPECT_EQ(at(y, Ez, 6, 3, 5), 0);       // (6, 3, 5.5): 1.12
}

// Objects reaching beyond the grid are clipped: the components inside the grid still see them.
TEST(Model, ObjectsArePartlyOutsideTheGrid) {
  using enum Component;
  const Model m = build_model(deck_with(sphere("glass", {0, 0, 0}, 3e-3)));
  EXPECT_EQ(at(m, Hx, 0, 1, 1), kGlass);   // (0, 1.5, 1.5): on the x = 0 face, live
  EXPECT_EQ(at(m, Ex, 0, 1, 1), kGlass);   // (0.5, 1, 1)
  EXPECT_EQ(at(m, Ex, 0, 0, 1), kPinned);  // tangential on the y = 0 face
  EXPECT_EQ(at(m, Hz, 2, 2, 0), 0);        // (2.5, 2.5, 0): 3.54
}

// Later objects win wherever they overlap, whatever their shapes; E in PEC is pinned.
TEST(Model, LaterObjectsWinAcrossShapes) {
  using enum Component;
  Deck d = deck_with({ShapeKind::box, "glass", {2e-3, 2e-3, 2e-3}, {8e-3, 8e-3, 8e-3}});
  d.geometry.push_back(sphere("pec", {5e-3, 5e-3, 5e-3}, 2e-3));
  d.geometry.push_back(cylinder("lossy", 0, {0, 5e-3, 5e-3}, 1e-3, 0, 10e-3));
  const Model m = build_model(d);
  EXPECT_EQ(at(m, Ex, 5, 5, 5), kLossy);   // (5.5, 5, 5): in all three, the cylinder is last
  EXPECT_EQ(at(m, Hx, 5, 5, 5), kLossy);   // (5, 5.5, 5.5)
  EXPECT_EQ(at(m, Ex, 1, 5, 5), kLossy);   // (1.5, 5, 5): in the cylinder only
  EXPECT_EQ(at(m, Ex, 5, 6, 6), kPinned);  // (5.5, 6, 6): in the PEC sphere and the box
  EXPECT_EQ(at(m, Hz, 5, 6, 6), 1);        // (5.5, 6.5, 6): H in PEC keeps mu0 (material pec)
  EXPECT_EQ(at(m, Ey, 5, 6, 3), kGlass);   // (5, 6.5, 3): in the box only
  EXPECT_EQ(at(m, Ey, 5, 8, 3), 0);        // (5, 8.5, 3): in none

  // The same objects in the reverse order: the box now covers the sphere and the cylinder.
  std::reverse(d.geometry.begin(), d.geometry.end());
  const Model reversed = build_model(d);
  EXPECT_EQ(at(reversed, Ex, 5, 5, 5), kGlass);
  EXPECT_EQ(at(reversed, Ex, 5, 6, 6), kGlass);
  EXPECT_EQ(at(reversed, Ex, 1, 5, 5), kLossy);
}

// class_key against the plain definition, component by component over every node, for shapes
// placed so that no component lies within rounding of a surface.
TEST(Model, ClassKeysMatchAPlainPointInObjectTest) {
  Deck d = deck_with({ShapeKind::box, "glass", {1.3e-3, 2.2e-3, 0.7e-3}, {6.1e-3, 7.7e-3, 5.4e-3}});
  d.geometry.push_back(sphere("lossy", {4.3e-3, 5.1e-3, 4.6e-3}, 2.7e-3));
  d.geometry.push_back(cylinder("pec", 2, {7.2e-3, 3.3e-3, 0}, 1.9e-3, 2.1e-3, 8.3e-3));
  d.geometry.push_back(cylinder("glass", 0, {0, 7.4e-3, 6.6e-3}, 2.3e-3, 3.2e-3, 20e-3));
  d.geometry.push_back(sphere("free_space", {9.6e-3, 0.4e-3, 9.2e-3}, 3.3e-3));
  const Model m = build_model(d);
  const auto contains = [](const GeometryObject& o, const Vec3& p) {
    const auto squared = [&](int axis) { return (p[axis] - o.centre[axis]) * (p[axis] - o.centre[axis]); };
    switch (o.shape) {
      case ShapeKind::box:
        return o.lower[0] <= p[0] && p[0] <= o.upper[0] && o.lower[1] <= p[1] && p[1] <= o.upper[1] &&
               o.lower[2] <= p[2] && p[2] <= o.upper[2];
      case ShapeKind::sphere: return std::sqrt(squared(0) + squared(1) + squared(2)) <= o.radius;
      case ShapeKind::cylinder: {
        const int a = o.axis, b = (o.axis + 1) % 3, c = (o.axis + 2) % 3;
        return o.axis_lower <= p[a] && p[a] <= o.axis_upper && std::sqrt(squared(b) + squared(c)) <= o.radius;
      }
    }
    return false;
  };
  Deck empty = d;
  empty.geometry.clear();
  const Model bare = build_model(empty);         // pins only the components on PEC faces and outside the grid
  std::vector<int> holds(d.geometry.size(), 0);  // components each object wins
  for (Index k = 0; k <= 10; ++k)
    for (Index j = 0; j <= 10; ++j)
      for (Index i = 0; i <= 10; ++i) {
        const ClassKey key = m.class_key(i, j, k), bare_key = bare.class_key(i, j, k);
        for (Component c : kAllComponents) {
          const int slot = static_cast<int>(c);
          const auto s = stagger(c);
          const Vec3 p{(i + s[0]) * 1e-3, (j + s[1]) * 1e-3, (k + s[2]) * 1e-3};
          std::int16_t material = 0;
          for (std::size_t o = 0; o < d.geometry.size(); ++o)
            if (contains(d.geometry[o], p)) material = m.object_material[o];
          for (std::size_t o = d.geometry.size(); o-- > 0;)
            if (contains(d.geometry[o], p)) {
              ++holds[o];
              break;
            }
          const bool pinned = bare_key[slot] == kPinned || (is_electric(c) && m.materials[material].pec);
          ASSERT_EQ(key[slot], pinned ? kPinned : material)
              << component_name(c) << " at node (" << i << ", " << j << ", " << k << ")";
        }
      }
  for (std::size_t o = 0; o < holds.size(); ++o) EXPECT_GT(holds[o], 0) << "object " << o;
}

// The class table and every subdomain's material_class against class_key node by node: the
// model builder computes keys once per axis signature and copies them (src/solver/model.cpp),
// which must give what class_key gives everywhere, for objects with surfaces on the nodes and
// off them, of every shape, on and beyond the grid's faces, over single and split domains.
TEST(Model, MaterialClassesMatchClassKeyAtEveryNode) {
  std::vector<Deck> decks;
  Deck on_nodes = deck_with({ShapeKind::box, "glass", {2e-3, 3e-3, 1e-3}, {7e-3, 8e-3, 6e-3}});
  on_nodes.geometry.push_back(sphere("pec", {5e-3, 5e-3, 5e-3}, 2e-3));  // surfaces through nodes
  on_nodes.geometry.push_back(cylinder("lossy", 0, {0, 5e-3, 5e-3}, 1.5e-3, 1e-3, 12e-3));
  on_nodes.geometry.push_back(cylinder("glass", 1, {10e-3, 0, 0}, 3e-3, -1e-3, 4.5e-3));
  on_nodes.geometry.push_back(sphere("lossy", {-1e-3, 9e-3, 9.5e-3}, 2.5e-3));
  decks.push_back(on_nodes);
  Deck off_nodes = deck_with({ShapeKind::box, "glass", {1.3e-3, 2.2e-3, 0.7e-3}, {6.1e-3, 7.7e-3, 5.4e-3}});
  off_nodes.geometry.push_back(sphere("lossy", {4.3e-3, 5.1e-3, 4.6e-3}, 2.7e-3));
  off_nodes.geometry.push_back(cylinder("pec", 2, {7.2e-3, 3.3e-3, 0}, 1.9e-3, 2.1e-3, 8.3e-3));
  off_nodes.grid = {12, 9, 11};  // cells of 1 x 1.1 x 0.9 mm
  off_nodes.cell_size = {1e-3, 1.1e-3, 0.9e-3};
  decks.push_back(off_nodes);
  for (const Deck& d : decks) {
    const Model m = build_model(d);
    const GridShape g = m.grid;
    std::set<ClassKey> keys{m.classes.front()};
    for (Index k = 0; k <= g.nz; ++k)
      for (Index j = 0; j <= g.ny; ++j)
        for (Index i = 0; i <= g.nx; ++i) keys.insert(m.class_key(i, j, k));
    ASSERT_EQ(m.classes, std::vector<ClassKey>(keys.begin(), keys.end()));
    for (const auto& [subdomains, ghost] : {std::pair{1, 1}, std::pair{3, 1}, std::pair{4, 2}}) {
      const SlabDecomposition split(g, subdomains, ghost);
      for (int s = 0; s < split.size(); ++s) {
        const SlabSubdomain& sub = split.subdomain(s);
        const EngineSetup<float> setup = make_engine_setup<float>(m, sub.k_begin, sub.stored_planes, sub.ghost, 1);
        const FieldLayout& L = setup.layout;
        for (Index k = -L.origin_z; k < L.nodes_z + L.origin_z; ++k)
          for (Index j = -1; j <= L.nodes_y; ++j)
            for (Index i = -1; i <= L.nodes_x; ++i) {
              const Index kg = sub.k_begin + k;
              const bool node = kg >= 0 && kg <= g.nz && j >= 0 && j <= g.ny && i >= 0 && i <= g.nx;
              const ClassKey key = node ? m.class_key(i, j, kg) : m.classes.front();
              ASSERT_EQ(m.classes[setup.material_class[L.offset(i, j, k)]], key)
                  << "slab " << s << " of " << subdomains << ", node (" << i << ", " << j << ", " << kg << ")";
            }
      }
    }
  }
}

TEST(Model, SourceInsidePecIsRefused) {
  Deck d = small_deck();
  Source s;
  s.position = {6.5e-3, 2.5e-3, 2e-3};
  s.polarisation = 0;
  d.sources.push_back(s);
  d.sources[0].position = {6e-3, 2e-3, 2e-3};
  EXPECT_THROW(build_model(d), DeckError);
}

// Sources on one node and component go in rounds, in their order, so that a device engine adds
// them one after the other (kernels/engine.hpp); others all go in round 0.
TEST(Model, SourcesSharingANodeGoInRounds) {
  std::vector<PointSource> sources = {{Component::Ez, 7, 1.0}, {Component::Ex, 7, 1.0}, {Component::Ez, 9, 1.0},
                                      {Component::Ez, 7, 2.0}, {Component::Ez, 9, 2.0}, {Component::Ez, 7, 3.0}};
  EXPECT_EQ(number_rounds(sources), 3);
  const std::vector<int> rounds = {0, 0, 0, 1, 1, 2};
  for (std::size_t s = 0; s < sources.size(); ++s) EXPECT_EQ(sources[s].round, rounds[s]) << s;
  std::vector<PointSource> apart = {{Component::Ez, 7, 1.0}, {Component::Ex, 7, 1.0}};
  EXPECT_EQ(number_rounds(apart), 1);
  std::vector<PointSource> none;
  EXPECT_EQ(number_rounds(none), 0);
}

TEST(Model, ChecksumChainsOverSlabs) {
  testing::SteppedModel<float> s(small_deck(), "host");
  s.randomise_e(3);
  const auto ex = s.field(Component::Ex);
  const FieldLayout& L = s.engine->layout();
  const NodeRange all = s.range;
  NodeRange lower = all, upper = all;
  lower.k1 = 3;
  upper.k0 = 3;
  EXPECT_EQ(checksum<float>(ex, L, all), checksum<float>(ex, L, upper, checksum<float>(ex, L, lower)));
}

TEST(Model, HostEngineScanFindsEveryNonFiniteValue) {
  testing::expect_finite_scan_finds_every_value<float>(small_deck(), "host");
  testing::expect_finite_scan_finds_every_value<double>(small_deck(), "host");
}

// The host engine's scan tests exponent bits: the largest finite values, the smallest
// subnormals and negative zero are finite; one Inf among them is not.
template <typename Real>
void expect_scan_passes_extreme_finite_values() {
  testing::SteppedModel<Real> s(small_deck(), "host");
  const Real extremes[] = {std::numeric_limits<Real>::max(), -std::numeric_limits<Real>::max(),
                           std::numeric_limits<Real>::denorm_min(), -std::numeric_limits<Real>::min(), Real(-0.0)};
  std::vector<Real> v = s.field(Component::Hy);
  for (std::size_t e = 0; e < v.size(); ++e) v[e] = extremes[e % std::size(extremes)];
  s.engine->upload(Component::Hy, v);
  EXPECT_TRUE(s.engine->fields_finite());
  v[v.size() / 3] = std::numeric_limits<Real>::infinity();
  s.engine->upload(Component::Hy, v);
  EXPECT_FALSE(s.engine->fields_finite());
}

TEST(Model, HostEngineScanPassesExtremeFiniteValues) {
  expect_scan_passes_extreme_finite_values<float>();
  expect_scan_passes_extreme_finite_values<double>();
}

TEST(Model, HostEngineIsDeterministic) {
  Deck d = small_deck();
  Source s;
  s.position = {4e-3, 3e-3, 2e-3};
  d.sources.push_back(s);
  std::uint64_t sums[2];
  for (auto& sum : sums) {
    testing::SteppedModel<float> run(d, "host");
    for (Index n = 0; n < 10; ++n) run.step(n);
    sum = checksum<float>(run.field(Component::Ez), run.engine->layout(), run.range);
  }
  EXPECT_EQ(sums[0], sums[1]);
}

// The cuda engine's large fields share a field arena: six slots of a field's bytes rounded up to
// the unit, then the class bytes. The memory estimate counts the smallest unit's arena;
// --arena-unit names a unit (auto: the engine's placement trial), and nothing else.
TEST(Model, FieldArenaHoldsSixSlotsAndTheClassBytes) {
  constexpr std::size_t MiB = std::size_t(1) << 20;
  EXPECT_EQ(field_slot(611078400, kSlotUnits[0]), 584 * MiB);  // a field of 512^3 cells, f32
  EXPECT_EQ(field_slot(611078400, kSlotUnits[1]), 608 * MiB);
  EXPECT_EQ(field_slot(611078400, kSlotUnits[2]), 1024 * MiB);
  EXPECT_EQ(field_slot(kPlacementTrialBytes, kSlotUnits[1]), kPlacementTrialBytes);  // already a multiple
  EXPECT_EQ(field_arena_bytes(611078400 / 4, 4, kSlotUnits[0]), 6 * 584 * MiB + 611078400 / 4);
  EXPECT_EQ(arena_unit_named("auto"), std::size_t(0));
  EXPECT_EQ(arena_unit_named("2M"), kSlotUnits[0]);
  EXPECT_EQ(arena_unit_named("32M"), kSlotUnits[1]);
  EXPECT_EQ(arena_unit_named("1G"), kSlotUnits[2]);
  for (const std::size_t unit : kSlotUnits) EXPECT_EQ(arena_unit_named(slot_unit_name(unit)), unit);
  for (const char* other : {"", "8M", "1024M", "2m", "0", "AUTO"})
    EXPECT_EQ(arena_unit_named(other), std::nullopt) << other;
  Deck d = small_deck();
  d.grid = {512, 512, 512};
  d.geometry.clear();
  const FieldLayout L = FieldLayout::make(513, 513, 513, 1, sizeof(float));
  const auto field = static_cast<std::size_t>(L.elements()) * sizeof(float);
  EXPECT_GE(estimate_engine_bytes(d, 32), field_arena_bytes(field / 4, 4, kSlotUnits[0]));
  EXPECT_GT(field_arena_bytes(field / 4, 4, kSlotUnits[0]), kComponentCount * field + field / 4);
}

// Split into slabs, the estimate is the largest slab's engine: nz / N + 1 planes with R ghost
// planes on each side, so deeper halos need more, and CPML adds the psi of the slab's faces.
TEST(Model, MemoryEstimateIsTheLargestSlabsWithItsGhostPlanes) {
  Deck d = small_deck();
  d.grid = {512, 512, 510};
  d.geometry.clear();
  for (Index depth : {1, 2, 4}) {
    const FieldLayout slab = FieldLayout::make(513, 513, 510 / 4 + 1, depth, sizeof(float));
    const auto field = static_cast<std::size_t>(slab.elements()) * sizeof(float);
    const std::size_t fields = field_arena_bytes(field / 4, 4, kSlotUnits[0]);
    EXPECT_GE(estimate_engine_bytes(d, 32, 4, depth), fields) << "R = " << depth;
    EXPECT_LT(estimate_engine_bytes(d, 32, 4, depth), fields + (std::size_t(4) << 20)) << "R = " << depth;
  }
  EXPECT_LT(estimate_engine_bytes(d, 32, 4, 1), estimate_engine_bytes(d, 32, 4, 2));
  EXPECT_LT(estimate_engine_bytes(d, 32, 4), estimate_engine_bytes(d, 32) / 3);
  EXPECT_EQ(estimate_engine_bytes(d, 32, 100000), estimate_engine_bytes(d, 32, 510))
      << "more slabs than planes: one a plane";
  Deck cpml = d;
  cpml.boundary.fill(BoundaryKind::cpml);
  cpml.cpml.cells = 10;
  EXPECT_GT(estimate_engine_bytes(cpml, 32, 4), estimate_engine_bytes(d, 32, 4));
}

}  // namespace
}  // namespace yeex
