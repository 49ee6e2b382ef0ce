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
  NodeRange range;

  SteppedModel(const Deck& deck, const std::string& engine_name)
      : model(build_model(deck)), range(all_nodes(model.grid)) {
    engine = make_engine<Real>(engine_name, make_engine_setup<Real>(model, 0, model.grid.nz + 1, 1, 1));
  }

  void step(Index n) {
    engine->update_h(range);
    engine->update_e(range);
    engine->inject_sources(n);
  }

  std::vector<Real> field(Component c) {
    std::vector<Real> v(engine->layout().elements());
    engine->download(c, v);
    return v;
  }

  // Fills E with reproducible pseudo-random values (pinned components are zeroed by the first step).
  void randomise_e(unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<Real> v(engine->layout().elements());
    for (Component c : {Component::Ex, Component::Ey, Component::Ez}) {
      for (auto& x : v) x = static_cast<Real>(u(rng));
      engine->upload(c, v);
    }
  }
};

}  // namespace yeex::testing
