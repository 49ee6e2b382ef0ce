// The model builder: material classes per node, the pinned components of a PEC box, sources
// and probes mapped to nodes, checksums that chain over z-slabs.
#include <gtest/gtest.h>

#include "src/solver/field_stats.hpp"
#include "tests/support/engine_fixture.hpp"

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

TEST(Model, PecFacesPinTangentialE) {
  const Model m = build_model(small_deck());
  const auto ex = [&](Index i, Index j, Index k) { return m.class_key(i, j, k)[int(Component::Ex)]; };
  EXPECT_EQ(ex(3, 0, 2), kPinned);   // on the y = 0 face
  EXPECT_EQ(ex(3, 6, 2), kPinned);   // on the y = ny face
  EXPECT_EQ(ex(8, 3, 2), kPinned);   // beyond the grid along x
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

TEST(Model, SourceInsidePecIsRefused) {
  Deck d = small_deck();
  Source s;
  s.position = {6.5e-3, 2.5e-3, 2e-3};
  s.polarisation = 0;
  d.sources.push_back(s);
  d.sources[0].position = {6e-3, 2e-3, 2e-3};
  EXPECT_THROW(build_model(d), DeckError);
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

}  // namespace
}  // namespace yeex
