// Rows of one material class. Engines that sweep along x rows look a row up here: when all of its
// nodes share a class, the class's coefficients are loaded once for the row and the inner loop
// vectorises; a mixed row looks the class up per node. Most rows of a model are uniform.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/field_layout.hpp"
#include "kernels/yee_stencil.hpp"

namespace yeex {

// Where row (j, k) is in RowClasses::uniform: j in [-1, nodes_y], k over every allocated plane.
struct RowIndex {
  Index rows_per_plane = 0;  // nodes_y + 2
  Index origin_z = 0;
  YEEX_HOST_DEVICE Index operator()(Index j, Index k) const { return (k + origin_z) * rows_per_plane + j + 1; }
};

struct RowClasses {
  RowIndex index;
  std::vector<int> uniform;  // the row's class if all nodes an engine sweeps along x share one, else -1

  int at(Index j, Index k) const { return uniform[index(j, k)]; }

  // The nodes an engine sweeps along x are i in [0, nodes_x - 1) (update_nodes in
  // decomposition/grid.hpp); a range outside them must look classes up per node.
  static bool covers(const FieldLayout& L, Index i0, Index i1) { return i0 >= 0 && i1 <= L.nodes_x - 1; }

  static RowClasses make(const FieldLayout& L, const std::vector<std::uint8_t>& material_class) {
    RowClasses r;
    r.index = {L.nodes_y + 2, L.origin_z};
    r.uniform.assign(L.planes * r.index.rows_per_plane, -1);
    for (Index k = -L.origin_z; k < L.nodes_z + L.origin_z; ++k)
      for (Index j = -1; j <= L.nodes_y; ++j) {
        const std::uint8_t* row = material_class.data() + L.offset(0, j, k);
        const bool same = std::all_of(row, row + L.nodes_x - 1, [&](std::uint8_t c) { return c == row[0]; });
        r.uniform[r.index(j, k)] = same ? row[0] : -1;
      }
    return r;
  }
};

}  // namespace yeex
