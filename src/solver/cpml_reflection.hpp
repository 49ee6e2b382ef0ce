// The CPML reflection measurement: a pulsed dipole in a small box closed by CPML on all six
// faces against the same dipole in a box large enough that no wall reflection reaches the probe
// within the window (the reference). The reflection is
//   dB = 20 log10( max_t |Ez_small(t) - Ez_reference(t)| / max_t |Ez_reference(t)| )
// at a probe between the source and the x_min slab. Used by the CPU test and `yeex validate`.
#pragma once

#include <optional>
#include <string>

#include "io/deck.hpp"
#include "src/solver/solver.hpp"

namespace yeex {

struct CpmlReflectionOptions {
  CpmlSettings cpml;    // thickness and profiles under test (default: the deck defaults)
  Index interior = 20;  // cells between the slabs along each axis of the small box
  double cell = 1e-3;   // m, cubic cells
  std::string engine = "host";
  int precision_bits = 64;
  // How the small CPML box runs (engine, precision, split, exchange: `yeex validate`); unset: one
  // domain with `engine` and `precision_bits`. The reference always runs as one domain with the
  // same engine and precision (its split would not change a bit: the bitwise contract).
  std::optional<RunConfig> small_run;
};

struct CpmlReflection {
  double db = 0;              // the reflection, as above
  double max_difference = 0;  // V/m
  double max_reference = 0;   // V/m
  Index steps = 0;            // window
  Index small_cells = 0;      // per axis, slabs included
  Index reference_cells = 0;  // per axis
  double probe_distance = 0;  // m, from the source toward x_min
  double frequency = 0;       // Hz, of the Ricker pulse (20 cells per wavelength)
};

// Runs both boxes with `options.engine` (single domain) and returns the measurement.
CpmlReflection measure_cpml_reflection(const CpmlReflectionOptions& options = {});

// The two decks of the measurement (the small CPML box, the large PEC reference).
Deck cpml_reflection_deck(const CpmlReflectionOptions& options, bool reference);

}  // namespace yeex
