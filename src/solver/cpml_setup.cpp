#include "src/solver/cpml_setup.hpp"

#include <algorithm>

#include "physics/cpml.hpp"

namespace yeex {

template <typename Real>
std::vector<CpmlFaceSetup<Real>> make_cpml_setup(const Deck& deck, double dt, const FieldLayout& L, Index k_first) {
  std::vector<CpmlFaceSetup<Real>> faces;
  const auto cells = deck.grid.as_array();
  const Index n = deck.cpml.cells;
  for (int face = 0; face < 6; ++face) {
    if (deck.boundary[face] != BoundaryKind::cpml) continue;
    const int axis = face / 2;
    const bool upper = face % 2 == 1;
    const Index lo = upper ? cells[axis] - n : 0;  // global first node of the slab along axis
    CpmlFaceSetup<Real> setup;
    CpmlFace<Real>& g = setup.geometry;
    g.axis = axis;
    g.upper = upper;
    g.i0 = 0, g.ni = L.nodes_x;
    g.j0 = 0, g.nj = L.nodes_y;
    g.k0 = -L.origin_z, g.nk = L.planes;
    if (axis == 0) g.i0 = lo, g.ni = n;
    if (axis == 1) g.j0 = lo, g.nj = n;
    g.table_origin = axis == 2 ? lo - k_first : lo;
    if (axis == 2) {  // the local planes of the global slab
      const Index first = std::max(lo - k_first, -L.origin_z),
                  last = std::min(lo - k_first + n, L.nodes_z + L.origin_z);
      if (last <= first) continue;
      g.k0 = first, g.nk = last - first;
    }
    setup.table.resize(2 * n);
    const double sigma_max = deck.cpml_sigma_max(axis);
    for (Index t = 0; t < n; ++t) {
      // Positions in cells from the slab's first node; depth from the inner edge.
      for (const bool h : {false, true}) {
        const double x = t + (h ? 0.5 : 0.0);
        const double rho = upper ? x / n : (n - x) / n;
        const CpmlCoefficients k = cpml_coefficients(deck.cpml, sigma_max, dt, rho);
        setup.table[2 * t + (h ? 1 : 0)] = {static_cast<Real>(k.b), static_cast<Real>(k.c),
                                            static_cast<Real>(k.kappa_inverse_minus_one), Real(0)};
      }
    }
    faces.push_back(std::move(setup));
  }
  return faces;
}

template std::vector<CpmlFaceSetup<float>> make_cpml_setup<float>(const Deck&, double, const FieldLayout&, Index);
template std::vector<CpmlFaceSetup<double>> make_cpml_setup<double>(const Deck&, double, const FieldLayout&, Index);

std::size_t cpml_psi_elements(const Deck& deck, const FieldLayout& layout, Index k_first) {
  std::size_t total = 0;
  for (const auto& face : make_cpml_setup<float>(deck, 1e-12, layout, k_first)) total += 4 * face.geometry.box();
  return total;
}

}  // namespace yeex
