// From the deck's plane waves to the engines' TF/SF corrections (kernels/tfsf.hpp): the corrected
// nodes of the whole grid with their terms, and the incident table of the 1D grids
// (physics/plane_wave.hpp), resolved once per run; each engine takes the nodes of its planes.
//
// A component is total where its staggered position p (in cells) satisfies a_d <= p_d <= b_d on
// every axis, [a, b] the box's nodes; scattered elsewhere. A node's update that reads a component
// of the other kind gets a term: coefficient c (the factor of that read in the node's update:
// +-e_curl / d or +-h_curl / d) times (1 if the node is total, -1 if it is scattered) times the
// read component's share of the incident field (polarisation . axis for E, (direction x
// polarisation) . axis for H), applied to the 1D grid's field interpolated at the read
// component's position.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "decomposition/grid.hpp"
#include "io/deck.hpp"
#include "kernels/field_layout.hpp"
#include "kernels/tfsf.hpp"

namespace yeex {

struct Model;

// One plane wave's 1D grid, as resolved (for run.json and the tests).
struct ResolvedPlaneWave {
  std::string name;
  double spacing = 0;                     // the 1D grid's cell (m)
  double speed = 0;                       // v in the box surface's material (m/s)
  std::string material;                   // that material
  std::int64_t base = 0;                  // its first line in a table row
  std::int64_t width = 0;                 // its lines
  std::int64_t margin = 0;                // lines from the 1D source to the box corner r0 the wave reaches first
  std::array<Index, 3> lower{}, upper{};  // the box's nodes
};

struct TfsfModel {
  struct Term {
    std::int64_t line = 0;  // in a table row
    double weight = 0, coefficient = 0;
  };
  struct Node {
    Component component = Component::Ex;
    std::array<Index, 3> node{};
    std::int64_t first = 0;  // terms [first, first + count)
    int count = 0;
  };
  std::vector<ResolvedPlaneWave> waves;
  std::vector<Node> nodes;  // sorted by node (k, j, i), then component
  std::vector<Term> terms;
  std::int64_t width = 0;        // of a table row (every plane wave's lines)
  std::vector<double> incident;  // [step][E, H][width]; empty without samples (a dry run)

  bool empty() const { return nodes.empty(); }
};

// Resolves model.deck.plane_waves into model.tfsf; throws DeckError for a box surface that is not
// in one lossless material. Without samples the table is left empty (a dry run: sizes only).
void resolve_plane_waves(Model& model, bool with_samples);

// The corrections of an engine whose arrays have `layout` and whose local plane 0 is global plane
// k_first: the nodes of its stored planes, ghosts included, at their local offsets.
template <typename Real>
TfsfSetup<Real> make_tfsf_setup(const TfsfModel& tfsf, Index steps, const FieldLayout& layout, Index k_first);

// Bytes an engine holds for the plane waves of a deck (its table, every step, and an allowance for
// its corrected nodes: all of them, whichever slab holds them), and the model's table in double.
struct TfsfBytes {
  std::size_t engine = 0;
  std::size_t host = 0;
};
TfsfBytes tfsf_bytes(const Deck& deck, std::size_t real);

}  // namespace yeex
