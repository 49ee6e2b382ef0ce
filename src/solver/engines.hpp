// The engine registry: names users pass to --engine, whether each can run here, and factories.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/engine.hpp"

namespace yeex {

struct EngineInfo {
  std::string name;
  std::string description;
  bool available = false;
  std::string why_not;  // when not available
};

std::vector<EngineInfo> engine_list();
// "cuda" when a GPU is usable, else "host".
std::string default_engine();
// Throws std::invalid_argument for an unknown or unavailable engine.
template <typename Real>
std::unique_ptr<Engine<Real>> make_engine(const std::string& name, const EngineSetup<Real>& setup);

}  // namespace yeex
