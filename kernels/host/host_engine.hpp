// The host engine: OpenMP loops over the cell functions of kernels/yee_stencil.hpp.
#pragma once

#include <memory>

#include "kernels/engine.hpp"

namespace yeex {

template <typename Real>
std::unique_ptr<Engine<Real>> make_host_engine(const EngineSetup<Real>& setup);

}  // namespace yeex
