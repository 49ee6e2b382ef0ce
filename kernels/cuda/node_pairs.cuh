// Node pairs: one thread updates two neighbouring nodes of a row, c and c + 1 with c even, in
// float, by 8-byte loads and stores (the cuda engine's yee_pair_sweep_kernel, and coop's
// persistent sweep). The inputs of both nodes come from the pairs at c (and c + sy, c + sz, or
// c - sy, c - sz) plus one float of the next pair (H: E of node c + 2) or the previous one (E: H of
// node c - 1); each node then takes the cell functions of kernels/yee_stencil.hpp (h_cell_from,
// e_cell_from), the same arithmetic as one node a thread: the same bits.
#pragma once

#include <cstdint>

#include "kernels/yee_stencil.hpp"

namespace yeex {

// Updates the pair at c (UpdateH: H from E, else E from H); `coefficients(class)` gives a node's
// CellCoefficients<float> from its material class byte. Both nodes' coefficients are loaded,
// whatever their classes: a branch on them would hold the field loads back until the class bytes
// arrive. With `store` false the pair is computed and nothing is stored (a lane past the box's end
// that computes a clamped pair, so that its warp's loads stay in step).
template <bool UpdateH, typename Coefficients>
__device__ __forceinline__ void update_node_pair(float* ex, float* ey, float* ez, float* hx, float* hy, float* hz,
                                                 const std::uint8_t* material_class, Index c, int sy, Index sz,
                                                 Coefficients coefficients, bool store) {
  const auto pair = [c](const float* a, Index d) { return *reinterpret_cast<const float2*>(a + c + d); };
  const auto put = [c](float* a, float first, float second) {
    *reinterpret_cast<float2*>(a + c) = make_float2(first, second);
  };
  const uchar2 cls = *reinterpret_cast<const uchar2*>(material_class + c);
  if constexpr (UpdateH) {
    const float2 x = pair(ex, 0), y = pair(ey, 0), z = pair(ez, 0);
    const float2 x_y = pair(ex, sy), x_z = pair(ex, sz), y_z = pair(ey, sz), z_y = pair(ez, sy);
    const float2 hx0 = pair(hx, 0), hy0 = pair(hy, 0), hz0 = pair(hz, 0);
    const float y_next = ey[c + 2], z_next = ez[c + 2];  // of node c + 2
    const CellCoefficients<float> m0 = coefficients(cls.x), m1 = coefficients(cls.y);
    const CellUpdate<float> a =
        h_cell_from(HInputs<float>{x.x, y.x, z.x, x_y.x, x_z.x, y.y, y_z.x, z.y, z_y.x, hx0.x, hy0.x, hz0.x}, m0);
    const CellUpdate<float> b =
        h_cell_from(HInputs<float>{x.y, y.y, z.y, x_y.y, x_z.y, y_next, y_z.y, z_next, z_y.y, hx0.y, hy0.y, hz0.y}, m1);
    if (!store) return;
    put(hx, a.value[0], b.value[0]);
    put(hy, a.value[1], b.value[1]);
    put(hz, a.value[2], b.value[2]);
  } else {
    const float2 x = pair(hx, 0), y = pair(hy, 0), z = pair(hz, 0);
    const float2 x_y = pair(hx, -sy), x_z = pair(hx, -sz), y_z = pair(hy, -sz), z_y = pair(hz, -sy);
    const float2 ex0 = pair(ex, 0), ey0 = pair(ey, 0), ez0 = pair(ez, 0);
    const float y_prev = hy[c - 1], z_prev = hz[c - 1];  // of node c - 1
    const CellCoefficients<float> m0 = coefficients(cls.x), m1 = coefficients(cls.y);
    const CellUpdate<float> a =
        e_cell_from(EInputs<float>{x.x, y.x, z.x, x_y.x, x_z.x, y_prev, y_z.x, z_prev, z_y.x, ex0.x, ey0.x, ez0.x}, m0);
    const CellUpdate<float> b =
        e_cell_from(EInputs<float>{x.y, y.y, z.y, x_y.y, x_z.y, y.x, y_z.y, z.x, z_y.y, ex0.y, ey0.y, ez0.y}, m1);
    if (!store) return;
    put(ex, a.value[0], b.value[0]);
    put(ey, a.value[1], b.value[1]);
    put(ez, a.value[2], b.value[2]);
  }
}

}  // namespace yeex
