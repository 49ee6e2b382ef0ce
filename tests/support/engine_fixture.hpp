// Builds an engine straight from a deck, for tests that step fields by hand.
#pragma once

#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/solver/engines.hpp"
#include "src/solver/model.hpp"

namespace yeex::testing {

template <typename Real>
struct SteppedModel {
  Model model;
  std::unique_ptr<Engine<Real>> engine;
  NodeRange range;   // every node
  NodeRange update;  // the nodes an engine sweeps

  SteppedModel(const Deck& deck, const std::string& engine_name)
      : model(build_model(deck)), range(all_nodes(model.grid)), update(update_nodes(model.grid)) {
    engine = make_engine<Real>(engine_name, make_engine_setup<Real>(model, 0, model.grid.nz + 1, 1, 1));
  }

  void step(Index n) {
    engine->fold_sources(n);
    engine->update_h(update);
    engine->update_e(update);
    engine->inject_sources(n);
  }

  std::vector<Real> field(Component c) {
    std::vector<Real> v(engine->layout().elements());
    engine->download(c, v);
    return v;
  }

  // Fills E at the swept nodes with reproducible pseudo-random values, zero elsewhere (the
  // inert last planes must start at zero, as in any run); the first step zeroes the pinned ones.
  void randomise_e(unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const FieldLayout& L = engine->layout();
    std::vector<Real> v(L.elements());
    for (Component c : {Component::Ex, Component::Ey, Component::Ez}) {
      for (Index k = update.k0; k < update.k1; ++k)
        for (Index j = update.j0; j < update.j1; ++j)
          for (Index i = update.i0; i < update.i1; ++i) v[L.offset(i, j, k)] = static_cast<Real>(u(rng));
      engine->upload(c, v);
    }
  }
};

// Engine::fields_finite finds a NaN or an Inf wherever it is: clean arrays pass; then one value at
// a time, in each component, at the first element, the last, one in the middle and one past the
// last 16-byte word's start, turned into NaN, +Inf or -Inf fails the scan, and zero again passes.
template <typename Real>
void expect_finite_scan_finds_every_value(const Deck& deck, const std::string& engine_name) {
  SteppedModel<Real> s(deck, engine_name);
  for (Index n = 0; n < 3; ++n) s.step(n);
  ASSERT_TRUE(s.engine->fields_finite());
  const Index n = s.engine->layout().elements();
  const Real bad[] = {std::numeric_limits<Real>::quiet_NaN(), std::numeric_limits<Real>::infinity(),
                      -std::numeric_limits<Real>::infinity()};
  int which = 0;
  for (Component c : kAllComponents) {
    std::vector<Real> v = s.field(c);
    for (Index at : {Index(0), n - 1, n / 2 + 1, (n - 1) / 4 * 4 + 1}) {
      if (at >= n) continue;
      const Real kept = v[at];
      v[at] = bad[which++ % 3];
      s.engine->upload(c, v);
      EXPECT_FALSE(s.engine->fields_finite()) << component_name(c) << " element " << at << " = " << v[at];
      v[at] = kept;
      s.engine->upload(c, v);
    }
  }
  EXPECT_TRUE(s.engine->fields_finite());
}

}  // namespace yeex::testing
