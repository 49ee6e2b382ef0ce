// Builds an engine straight from a deck, for tests that step fields by hand.
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

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

}  // namespace yeex::testing
