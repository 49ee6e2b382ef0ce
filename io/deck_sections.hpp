// The tables of the deck, each read and checked by its own function, in the order parse_deck_string
// (io/deck.cpp) calls them; each throws the first problem as a DeckError (internal to yeex_io).
//
//   io/deck_grid.cpp       [grid], [time], [boundary] and [boundary.cpml]; the time step
//   io/deck_materials.cpp  [[material]], [[geometry]]; stability and the update coefficients
//   io/deck_dispersion.cpp a material's poles or Peplinski soil; their resolution at the time step
//   io/deck_sources.cpp    [[source]], [[probe]], [[snapshot]], [output]; the resolution warnings
//   io/deck_plane_waves.cpp  [[plane_wave]]
//
// Values that are legal one by one can still break the run together, so the deck is also checked
// as the engine will compute it: the time step, the stability in the fastest material in use, and
// every update, CPML and source coefficient in float32 (the default precision), computed by the
// same functions the model uses (physics/: update_coefficients, cpml_coefficients, source_coefficient).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "io/deck_reader.hpp"

namespace yeex::deck_detail {

// The fields and coefficients are float32 by default (--precision f32), so every coefficient must be
// 0 or a normal float32: a larger one overflows; a smaller one loses its precision or is flushed to
// zero, and a curl coefficient of zero freezes the field, a silent PEC.
inline constexpr double kFloatMin = std::numeric_limits<float>::min(), kFloatMax = std::numeric_limits<float>::max();

// io/deck_grid.cpp
void parse_grid(const TableReader& root, Deck& deck);
void parse_time(const TableReader& root, Deck& deck);
void parse_boundary(const TableReader& root, Deck& deck);

// io/deck_materials.cpp

// A material the model is made of, with its [[material]] entry ("material[2]"; empty for a built-in).
struct MaterialInUse {
  Material material;
  std::string path;
};

// The free-space background, then each material an object is made of, once: a material no object
// is made of never reaches the engine.
std::vector<MaterialInUse> materials_in_use(const Deck& deck);

void parse_materials(const TableReader& root, Deck& deck);
void parse_geometry(const TableReader& root, Deck& deck);
void check_stability(const Deck& deck);
void check_update_coefficients(const Deck& deck);

// io/deck_dispersion.cpp: a [[material]]'s poles or peplinski soil (after its other keys), and the
// poles of the materials in use at the time step.
void parse_dispersion(const TableReader& entry, Material& material);
void check_poles(const Deck& deck);

// io/deck_sources.cpp
void parse_sources(const TableReader& root, Deck& deck);
void parse_probes(const TableReader& root, Deck& deck);
void parse_snapshots(const TableReader& root, Deck& deck);
// io/deck_plane_waves.cpp
void parse_plane_waves(const TableReader& root, Deck& deck);

// Without output.directory a deck file writes to yeex-output/<its file stem>.
std::string default_output_directory(const std::string& origin);
void parse_output(const TableReader& root, Deck& deck);
// Advice on a complete, valid deck (too few cells per wavelength), one line each.
std::vector<std::string> resolution_warnings(const Deck& deck);

}  // namespace yeex::deck_detail
