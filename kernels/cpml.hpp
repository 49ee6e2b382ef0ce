// CPML (convolutional PML, Roden & Gedney 2000) as a correction after the main Yee update, the
// way gprMax's HORIPML does it: the main update (kernels/yee_stencil.hpp) stays unchanged, and
// each node inside a PML slab then gets, per PML direction d, a correction that uses the node's
// own material class, so a material that runs into the PML (a soil half-space) is absorbed too.
//
// Direction d touches the two components whose curl differentiates along d. With Delta the
// difference of the curl along d (the 1/d of the cell size is already in the class coefficient):
//   psi  = b psi + c Delta                        (one psi per node and component, per face)
//   F   += coeff * ((1/kappa - 1) Delta + psi)    (coeff: that term's class coefficient, signed)
// so that F sees Delta / kappa + psi in place of Delta. b = exp(-(sigma/kappa + alpha) dt/eps0),
// c = sigma / (sigma kappa + kappa^2 alpha) (b - 1), evaluated at the component's own staggered
// position along d (src/solver/cpml_setup.cpp builds the tables).
//
// Which term: for direction d, a1 = (d+2)%3 differentiates along d in its "a" term, a2 = (d+1)%3
// in its "b" term (see CellCoefficients):
//   E phase: E[a1] += +e_curl_a[a1] * corr(H[d+1] - H[d+1] at c - stride_d)
//            E[a2] += -e_curl_b[a2] * corr(H[d+2] - H[d+2] at c - stride_d)
//   H phase: H[a1] += -h_curl_a[a1] * corr(E[d+1] at c + stride_d - E[d+1])
//            H[a2] += +h_curl_b[a2] * corr(E[d+2] at c + stride_d - E[d+2])
// (component indices mod 3). The order per node is fixed: main update, then the x, y, z
// corrections (faces in the order x_min, x_max, y_min, y_max, z_min, z_max; the two faces of
// one axis never overlap). Each correction reads only fields the phase does not write (E reads
// H, H reads E) and writes only its own node, so applying it fused in the sweep or in a
// separate pass gives the same bits: the bitwise contract holds with CPML.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kernels/yee_stencil.hpp"

namespace yeex {

inline constexpr int kMaxCpmlFaces = 6;

// Per-face profile tables: kCpmlTables arrays of `entries` values each, one entry per node along
// the face's axis: b, c, 1/kappa - 1 at the E positions (integer along d), then at the H
// positions (half a cell above).
enum CpmlTable : int { kCpmlEB = 0, kCpmlEC, kCpmlEK, kCpmlHB, kCpmlHC, kCpmlHK, kCpmlTables };

// One PML slab in an engine's local node coordinates (z: local plane index). The psi arrays cover
// the box [i0, i0+ni) x [j0, j0+nj) x [k0, k0+nk), x fastest, z slowest (one z plane of psi is
// nj*ni contiguous values: halo transfers move whole planes).
template <typename Real>
struct CpmlFace {
  int axis = 0;
  bool upper = false;          // the max face of its axis
  Index i0 = 0, j0 = 0, k0 = 0, ni = 0, nj = 0, nk = 0;
  Index table_origin = 0;      // local coordinate along `axis` of table entry 0
  Index entries = 0;           // per table
  const Real* table = nullptr;  // kCpmlTables * entries
  Real* psi = nullptr;         // 4 arrays of box() values: E a1, E a2, H a1, H a2

  YEEX_HOST_DEVICE Index box() const { return ni * nj * nk; }
  YEEX_HOST_DEVICE bool contains(Index i, Index j, Index k) const {
    return static_cast<std::uint64_t>(i - i0) < static_cast<std::uint64_t>(ni) &&
           static_cast<std::uint64_t>(j - j0) < static_cast<std::uint64_t>(nj) &&
           static_cast<std::uint64_t>(k - k0) < static_cast<std::uint64_t>(nk);
  }
  YEEX_HOST_DEVICE Index psi_index(Index i, Index j, Index k) const { return ((k - k0) * nj + (j - j0)) * ni + (i - i0); }
};

// Every CPML face of one engine (faces = 0: no CPML). Passed to kernels by value.
template <typename Real>
struct CpmlView {
  int faces = 0;
  CpmlFace<Real> face[kMaxCpmlFaces];
  // Nodes in no face's box (set by set_cpml_interior): the cuda engine sweeps them with the plain
  // kernel, the coop kernel skips their corrections after this one box test.
  Index interior[6] = {0, 0, 0, 0, 0, 0};  // i0, i1, j0, j1, k0, k1
};

// The box of nodes between the faces of v (unbounded along an axis without a face).
template <typename Real>
void set_cpml_interior(CpmlView<Real>& v) {
  const Index far = Index(1) << 60;
  for (int a = 0; a < 3; ++a) v.interior[2 * a] = -far, v.interior[2 * a + 1] = far;
  for (int f = 0; f < v.faces; ++f) {
    const CpmlFace<Real>& face = v.face[f];
    const Index lo = face.axis == 0 ? face.i0 : face.axis == 1 ? face.j0 : face.k0;
    const Index n = face.axis == 0 ? face.ni : face.axis == 1 ? face.nj : face.nk;
    Index& bound = v.interior[2 * face.axis + (face.upper ? 1 : 0)];
    bound = face.upper ? (lo < bound ? lo : bound) : (lo + n > bound ? lo + n : bound);
  }
}

// Applies face f's correction to node (i,j,k) at array offset c, which must lie in f's box;
// `m` is the node's class. Axis: f.axis known at compile time (0, 1, 2: the host's per-face
// loops, which then vectorise) or not (-1: the fused sweeps); the arithmetic is the same.
template <typename Real, bool UpdateH, int Axis = -1>
YEEX_HOST_DEVICE void cpml_correct_node(const CpmlFace<Real>& f, const FieldPointers<Real>& fp, Index c, Index i,
                                        Index j, Index k, Index sy, Index sz, const CellCoefficients<Real>& m) {
  const int d = Axis >= 0 ? Axis : f.axis, a1 = (d + 2) % 3, a2 = (d + 1) % 3;
  const Index stride = d == 0 ? Index(1) : d == 1 ? sy : sz;
  const Index along = (d == 0 ? i : d == 1 ? j : k) - f.table_origin;
  const Index p = f.psi_index(i, j, k), box = f.box();
  // Selected by comparisons, not by indexing a local array (which would put it in local memory).
  const auto e = [&](int a) { return a == 0 ? fp.ex : a == 1 ? fp.ey : fp.ez; };
  const auto h = [&](int a) { return a == 0 ? fp.hx : a == 1 ? fp.hy : fp.hz; };
  const int table = UpdateH ? kCpmlHB : kCpmlEB;
  const Real b = f.table[(table + 0) * f.entries + along];
  const Real cc = f.table[(table + 1) * f.entries + along];
  const Real kinv = f.table[(table + 2) * f.entries + along];
  Real* psi1 = f.psi + (UpdateH ? 2 : 0) * box + p;
  Real* psi2 = f.psi + (UpdateH ? 3 : 1) * box + p;
  if constexpr (UpdateH) {
    const Real* e1 = e((d + 1) % 3);
    const Real* e2 = e((d + 2) % 3);
    const Real d1 = e1[c + stride] - e1[c];
    const Real d2 = e2[c + stride] - e2[c];
    const Real q1 = fused(b, *psi1, cc * d1), q2 = fused(b, *psi2, cc * d2);
    *psi1 = q1;
    *psi2 = q2;
    Real* h1 = h(a1);
    Real* h2 = h(a2);
    h1[c] = fused(-m.h_curl_a[a1], fused(kinv, d1, q1), h1[c]);
    h2[c] = fused(m.h_curl_b[a2], fused(kinv, d2, q2), h2[c]);
  } else {
    const Real* h1 = h((d + 1) % 3);
    const Real* h2 = h((d + 2) % 3);
    const Real d1 = h1[c] - h1[c - stride];
    const Real d2 = h2[c] - h2[c - stride];
    const Real q1 = fused(b, *psi1, cc * d1), q2 = fused(b, *psi2, cc * d2);
    *psi1 = q1;
    *psi2 = q2;
    Real* e1 = e(a1);
    Real* e2 = e(a2);
    e1[c] = fused(m.e_curl_a[a1], fused(kinv, d1, q1), e1[c]);
    e2[c] = fused(-m.e_curl_b[a2], fused(kinv, d2, q2), e2[c]);
  }
}

// All corrections of node (i,j,k), in face order, each where the node lies in the face's box:
// what a sweep kernel calls right after the node's main update.
template <typename Real, bool UpdateH>
YEEX_HOST_DEVICE void cpml_correct_faces(const CpmlView<Real>& v, const FieldPointers<Real>& fp, Index c, Index i,
                                         Index j, Index k, Index sy, Index sz, const CellCoefficients<Real>& m) {
  for (int f = 0; f < v.faces; ++f)
    if (v.face[f].contains(i, j, k)) cpml_correct_node<Real, UpdateH>(v.face[f], fp, c, i, j, k, sy, sz, m);
}

// The same for a sweep over every node (the coop kernel): nodes of the interior box leave after
// one box test.
template <typename Real, bool UpdateH>
YEEX_HOST_DEVICE void cpml_correct(const CpmlView<Real>& v, const FieldPointers<Real>& fp, Index c, Index i, Index j,
                                   Index k, Index sy, Index sz, const CellCoefficients<Real>& m) {
  if (i >= v.interior[0] && i < v.interior[1] && j >= v.interior[2] && j < v.interior[3] && k >= v.interior[4] &&
      k < v.interior[5])
    return;
  cpml_correct_faces<Real, UpdateH>(v, fp, c, i, j, k, sy, sz, m);
}

// ---- The split sweep of the cuda engine ----
//
// A fused sweep (main update and cpml_correct in one kernel over the whole range) costs every
// node: the CPML code needs 40 registers on sm_90 against the plain sweep's 32, so occupancy
// drops for all nodes, and warps that straddle a slab edge diverge. At 512^3 with 10 cells on
// all six faces it ran at 70.6 % of the PEC run (37.6 against 53.2 Gcells/s on an H200). So the
// cuda engine splits a range in two:
//   - the interior: the range's nodes inside CpmlView::interior (in no slab; x bounds aligned,
//     below), swept by the plain kernel, the one PEC runs use: 480 x 492 x 492 nodes at 512^3,
//     87 %;
//   - the shell: the rest, at most five disjoint boxes (below), swept by one launch of a kernel
//     that does the main update, then cpml_correct_faces: per node the same operations in the
//     same order as the fused sweep, so the bits do not change. 18 M nodes at 512^3, 15 M of
//     them in a slab.
// Expected: the interior at the PEC speed (2.52 ms/step for 512^3 on an H200 -> 2.18 ms), slab
// nodes at about 1.5 times a PEC node's cost (psi read and written, tables), the shell's other
// nodes at about 1.1 -> 0.49 ms; 2.67 ms in all, 94 % of PEC (target: 90 %).
// Each node belongs to exactly one of the two, and a sweep writes only its own nodes (and their
// psi) and reads only the other phase's fields, so the two launches may run in either order.
//
// The interior's x bounds are first rounded inward to whole 32-byte sectors (8 nodes in f32, 4
// in f64; node 0 of a row starts a 128-byte line): the interior then starts at i = 16 instead of
// 10, and each of its warps reads 4 sectors per array instead of 5; the shell's x nodes then
// fill their sectors too, so no sector is fetched by both launches. The nodes added to the
// shell are in no slab: cpml_correct_faces leaves them alone (same bits either way).
//
// The shell boxes: the two z slabs over the range's whole x-y extent, then the two y slabs over
// the interior's z extent, then the two x slabs over the interior's y-z extent as one box whose
// x extent is packed (x' in [0, width): the lower slab's nodes, then the upper slab's, `gap`
// nodes further). Each box is swept in tiles of tile_x x tile_rows nodes of one plane, one
// tile per block of kCpmlShellBlock threads, thread t at (t % tile_x, t / tile_x) of its tile.
// A wide box gets 32 x 4 tiles, the plain sweep's block shape (a warp reads 128 contiguous
// bytes, y neighbours mostly from its own block), or 64 x 2 (as fast for the plain sweep) where
// that pads less: the y slabs are 10 rows deep, 64 x 2 tiles fit them exactly where 32 x 4
// would leave a sixth of their warps without a node. A box narrower than 64 nodes gets tiles of
// its whole packed row, kCpmlShellBlock / width rows deep, so that its warps are full: the
// packed x box of a 10-cell CPML is 16 + 16 = 32 nodes wide in f32 (32 x 4 tiles, each warp
// one row: two 64-byte runs), 12 + 12 = 24 in f64 (24 x 5 tiles, 8 of 128 threads idle).
// Without the packing, one 32-wide tile per slab would leave half the lanes idle.
inline constexpr int kCpmlShellBoxes = 5;
inline constexpr unsigned kCpmlShellBlock = 128;

struct CpmlShellBox {
  Index i0 = 0, j0 = 0, k0 = 0;      // the box's first node
  Index gap = 0;                     // nodes x' >= split lie at i0 + x' + gap
  unsigned width = 0, split = 0;     // packed x extent
  unsigned rows = 0;                 // y extent
  unsigned tile_x = 0, tile_rows = 0;
  unsigned tiles_x = 0, tiles_y = 0;  // per row of tiles, per plane
  unsigned first_block = 0;          // of the shell launch
};

struct CpmlShell {
  NodeRange interior;  // may be empty
  int boxes = 0;
  CpmlShellBox box[kCpmlShellBoxes];
  unsigned blocks = 0;  // of the shell launch; 0: no shell
};

// Splits `r` into its interior box (sector-aligned in x) and its shell boxes (see above).
// Throws std::length_error when the shell needs more than 2^31 - 1 blocks (a grid's limit).
template <typename Real>
CpmlShell cpml_shell(const CpmlView<Real>& v, const NodeRange& r) {
  CpmlShell s;
  if (r.empty()) return s;
  const auto clamp = [](Index x, Index lo, Index hi) { return x < lo ? lo : x > hi ? hi : x; };
  // The interior box within r: [a, b) along each axis, a and b clamped to r (a == b: empty).
  Index a[3], b[3];
  const Index lo[3] = {r.i0, r.j0, r.k0}, hi[3] = {r.i1, r.j1, r.k1};
  constexpr Index sector = 32 / sizeof(Real);  // nodes per 32-byte sector
  const auto floor_to_sector = [](Index x) { return x - ((x % sector) + sector) % sector; };
  const Index inner[6] = {floor_to_sector(v.interior[0] + sector - 1), floor_to_sector(v.interior[1]),
                          v.interior[2], v.interior[3], v.interior[4], v.interior[5]};
  for (int axis = 0; axis < 3; ++axis) {
    a[axis] = clamp(inner[2 * axis], lo[axis], hi[axis]);
    b[axis] = clamp(inner[2 * axis + 1], a[axis], hi[axis]);
  }
  s.interior = {a[0], b[0], a[1], b[1], a[2], b[2]};
  Index blocks = 0;
  const auto add = [&](Index i0, Index width, Index split, Index gap, Index j0, Index j1, Index k0, Index k1) {
    if (width <= 0 || j1 <= j0 || k1 <= k0) return;
    CpmlShellBox& box = s.box[s.boxes++];
    box.i0 = i0, box.j0 = j0, box.k0 = k0, box.gap = gap;
    box.width = static_cast<unsigned>(width);
    box.split = static_cast<unsigned>(split);
    box.rows = static_cast<unsigned>(j1 - j0);
    const auto tiles = [&](unsigned tile_x) {
      box.tile_x = tile_x;
      box.tile_rows = kCpmlShellBlock / tile_x;
      box.tiles_x = (box.width + tile_x - 1) / tile_x;
      box.tiles_y = (box.rows + box.tile_rows - 1) / box.tile_rows;
      return Index(box.tiles_x) * box.tile_x * box.tiles_y * box.tile_rows;  // nodes with padding
    };
    if (box.width < 64)
      tiles(box.width);
    else if (tiles(64) < tiles(32))  // else 32 x 4, set by the call
      tiles(64);
    box.first_block = static_cast<unsigned>(blocks);
    blocks += Index(box.tiles_x) * box.tiles_y * (k1 - k0);
    if (blocks > Index(0x7fffffff)) throw std::length_error("CPML shell sweep: more than 2^31 - 1 blocks");
  };
  add(r.i0, r.i1 - r.i0, r.i1 - r.i0, 0, r.j0, r.j1, r.k0, a[2]);  // z slabs
  add(r.i0, r.i1 - r.i0, r.i1 - r.i0, 0, r.j0, r.j1, b[2], r.k1);
  add(r.i0, r.i1 - r.i0, r.i1 - r.i0, 0, r.j0, a[1], a[2], b[2]);  // y slabs
  add(r.i0, r.i1 - r.i0, r.i1 - r.i0, 0, b[1], r.j1, a[2], b[2]);
  // x slabs, packed: [r.i0, a) then [b, r.i1)
  add(r.i0, (a[0] - r.i0) + (r.i1 - b[0]), a[0] - r.i0, b[0] - a[0], a[1], b[1], a[2], b[2]);
  s.blocks = static_cast<unsigned>(blocks);
  return s;
}

// The node of thread `thread` of block `block` of the shell launch; false where it has none.
// Block-uniform work first (which box, which tile), then one division per thread.
YEEX_HOST_DEVICE bool cpml_shell_node(const CpmlShell& s, unsigned block, unsigned thread, Index& i, Index& j,
                                      Index& k) {
  int n = 0;
  while (n + 1 < s.boxes && block >= s.box[n + 1].first_block) ++n;
  const CpmlShellBox& box = s.box[n];
  const unsigned t = block - box.first_block, tile_row = t / box.tiles_x, z = tile_row / box.tiles_y;
  const unsigned tile_x = t - tile_row * box.tiles_x, tile_y = tile_row - z * box.tiles_y;
  const unsigned ly = thread / box.tile_x, lx = thread - ly * box.tile_x;
  const unsigned x = tile_x * box.tile_x + lx, y = tile_y * box.tile_rows + ly;
  if (ly >= box.tile_rows || x >= box.width || y >= box.rows) return false;
  i = box.i0 + Index(x) + (x >= box.split ? box.gap : Index(0));
  j = box.j0 + Index(y);
  k = box.k0 + Index(z);
  return true;
}

// What the solver hands an engine per face (EngineSetup::cpml): the box and the tables; the
// engine allocates the psi arrays (zero) and points `geometry` at its own copies.
template <typename Real>
struct CpmlFaceSetup {
  CpmlFace<Real> geometry;  // table and psi unset
  std::vector<Real> table;  // kCpmlTables * geometry.entries
};

// A run of psi values in an engine's memory.
template <typename Real>
struct CpmlChunk {
  Real* data = nullptr;
  Index count = 0;
};

// The psi values that travel with the E (electric) or H field planes [k_begin, k_end) (local) in
// a B+2R exchange, one chunk per face and component in face order. Neighbouring subdomains have
// the same chunks for the same global planes (same nx, ny and faces), so a sender's list and a
// receiver's list match entry by entry.
template <typename Real>
std::vector<CpmlChunk<Real>> cpml_plane_chunks(const CpmlView<Real>& v, bool electric, Index k_begin, Index k_end) {
  std::vector<CpmlChunk<Real>> chunks;
  for (int f = 0; f < v.faces; ++f) {
    const CpmlFace<Real>& face = v.face[f];
    const Index a = k_begin > face.k0 ? k_begin : face.k0;
    const Index b = k_end < face.k0 + face.nk ? k_end : face.k0 + face.nk;
    if (b <= a) continue;
    const Index plane = face.ni * face.nj;
    for (int component = 0; component < 2; ++component)
      chunks.push_back({face.psi + (electric ? component : 2 + component) * face.box() + (a - face.k0) * plane,
                        (b - a) * plane});
  }
  return chunks;
}

}  // namespace yeex
