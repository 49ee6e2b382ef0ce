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
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/yee_stencil.hpp"

namespace yeex {

inline constexpr int kMaxCpmlFaces = 6;

// One face's profile at one node along its axis, for one phase: b, c and 1/kappa - 1 (see the
// top), padded to four values so that a kernel loads an entry at once (16 bytes in float).
template <typename Real>
struct alignas(4 * sizeof(Real)) CpmlProfile {
  Real b, c, kinv, unused;
};

// One PML slab in an engine's local node coordinates (z: local plane index). The psi values cover
// the box [i0, i0+ni) x [j0, j0+nj) x [k0, k0+nk), x fastest, z slowest, in pairs: a node's two
// psi of a phase (components a1, a2) lie next to each other, so a kernel loads and stores them as
// one PsiPair. `psi` holds the E pairs of the whole box, then the H pairs (one z plane of a phase
// is 2*nj*ni contiguous values: halo transfers move whole planes).
template <typename Real>
struct CpmlFace {
  int axis = 0;
  bool upper = false;  // the max face of its axis
  Index i0 = 0, j0 = 0, k0 = 0, ni = 0, nj = 0, nk = 0;
  Index table_origin = 0;                    // local coordinate along `axis` of node 0 of the table
  const CpmlProfile<Real>* table = nullptr;  // per node along `axis`: node n's E profile at 2n, its H profile at 2n + 1
  Real* psi = nullptr;                       // 4 box() values: box() E pairs (a1, a2), then box() H pairs

  YEEX_HOST_DEVICE Index box() const { return ni * nj * nk; }
  YEEX_HOST_DEVICE bool contains(Index i, Index j, Index k) const {
    return static_cast<std::uint64_t>(i - i0) < static_cast<std::uint64_t>(ni) &&
           static_cast<std::uint64_t>(j - j0) < static_cast<std::uint64_t>(nj) &&
           static_cast<std::uint64_t>(k - k0) < static_cast<std::uint64_t>(nk);
  }
  YEEX_HOST_DEVICE Index psi_index(Index i, Index j, Index k) const {
    return ((k - k0) * nj + (j - j0)) * ni + (i - i0);
  }
};

// A node's two psi of one phase and face, adjacent in memory (CpmlFace): one 8-byte (float) or
// 16-byte (double) load and store in a kernel.
template <typename Real>
struct alignas(2 * sizeof(Real)) PsiPair {
  Real a1, a2;
};

// One face as update_cell_with_cpml reads it: 32-bit bounds along the face's axis only (a face's
// box spans every node of the other two axes that a sweep visits: src/solver/cpml_setup.cpp), and
// the psi pair's index as one sum, in 32-bit arithmetic but for the plane term, so a shell node
// spends few instructions finding its faces.
template <typename Real>
struct CpmlSlab {
  int begin = 0, count = 0;  // [begin, begin + count) along the axis, local coordinates
  int i0 = 0, j0 = 0, k0 = 0;
  int row = 0, plane = 0;  // pair index = (k - k0) plane + ((j - j0) row + (i - i0)); plane < 2^31
  int table_origin = 0;
  const CpmlProfile<Real>* table = nullptr;
  PsiPair<Real>* psi[2] = {};  // the E pairs, the H pairs
};

// Every CPML face of one engine (faces = 0: no CPML). Passed to kernels by value.
template <typename Real>
struct CpmlView {
  int faces = 0;
  CpmlFace<Real> face[kMaxCpmlFaces];
  // Nodes in no face's box (set by cpml_interior): most nodes leave after this one box test.
  Index interior[6] = {0, 0, 0, 0, 0, 0};  // i0, i1, j0, j1, k0, k1
  // Each axis's min and max face in the form the split sweep's shell nodes test them (set by
  // set_cpml_interior; count 0 where the face does not exist).
  CpmlSlab<Real> slab[3][2];
};

// CpmlView::interior's bound on a side without a face (-kCpmlUnbounded below, +kCpmlUnbounded above).
inline constexpr Index kCpmlUnbounded = Index(1) << 60;

// The box of nodes between the faces of v (unbounded along an axis without a face).
template <typename Real>
void set_cpml_interior(CpmlView<Real>& v) {
  for (int a = 0; a < 3; ++a) {
    v.interior[2 * a] = -kCpmlUnbounded, v.interior[2 * a + 1] = kCpmlUnbounded;
    v.slab[a][0] = v.slab[a][1] = CpmlSlab<Real>{};
  }
  for (int f = 0; f < v.faces; ++f) {
    const CpmlFace<Real>& face = v.face[f];
    CpmlSlab<Real>& slab = v.slab[face.axis][face.upper ? 1 : 0];
    const Index origin[3] = {face.i0, face.j0, face.k0}, extent[3] = {face.ni, face.nj, face.nk};
    slab.begin = static_cast<int>(origin[face.axis]);
    slab.count = static_cast<int>(extent[face.axis]);
    slab.i0 = static_cast<int>(face.i0), slab.j0 = static_cast<int>(face.j0), slab.k0 = static_cast<int>(face.k0);
    if (face.ni * face.nj > std::numeric_limits<int>::max())
      throw std::invalid_argument("a CPML face of " + std::to_string(face.ni) + " x " + std::to_string(face.nj) +
                                  " nodes per plane: at most 2^31 - 1");
    slab.row = static_cast<int>(face.ni), slab.plane = static_cast<int>(face.ni * face.nj);
    slab.table_origin = static_cast<int>(face.table_origin);
    slab.table = face.table;
    slab.psi[0] = reinterpret_cast<PsiPair<Real>*>(face.psi);
    slab.psi[1] = reinterpret_cast<PsiPair<Real>*>(face.psi + 2 * face.box());
    const Index lo = origin[face.axis], n = extent[face.axis];
    Index& bound = v.interior[2 * face.axis + (face.upper ? 1 : 0)];
    bound = face.upper ? (lo < bound ? lo : bound) : (lo + n > bound ? lo + n : bound);
  }
}

// The profile of the phase at node `along` of a face's table (CpmlFace or CpmlSlab fields).
template <typename Real, bool UpdateH>
YEEX_HOST_DEVICE CpmlProfile<Real> cpml_profile(const CpmlProfile<Real>* table, int along) {
  return table[2 * along + (UpdateH ? 1 : 0)];
}

// The arithmetic of one face's correction at one node, on values: d1, d2 the two differences
// along the face's axis d (CellUpdate::diff[d]), psi1, psi2 the node's psi of the phase, f1, f2
// the components a1 = (d+2)%3 and a2 = (d+1)%3 after the main update.
template <typename Real, bool UpdateH>
YEEX_HOST_DEVICE void cpml_apply(int d, const CpmlProfile<Real>& t, Real d1, Real d2, Real& psi1, Real& psi2, Real& f1,
                                 Real& f2, const CellCoefficients<Real>& m) {
  const int a1 = (d + 2) % 3, a2 = (d + 1) % 3;
  psi1 = fused(t.b, psi1, t.c * d1);
  psi2 = fused(t.b, psi2, t.c * d2);
  if constexpr (UpdateH) {
    f1 = fused(-m.h_curl_a[a1], fused(t.kinv, d1, psi1), f1);
    f2 = fused(m.h_curl_b[a2], fused(t.kinv, d2, psi2), f2);
  } else {
    f1 = fused(m.e_curl_a[a1], fused(t.kinv, d1, psi1), f1);
    f2 = fused(-m.e_curl_b[a2], fused(t.kinv, d2, psi2), f2);
  }
}

// Whether node (i,j,k) lies in no face's box (one box test).
template <typename Real>
YEEX_HOST_DEVICE bool in_cpml_interior(const CpmlView<Real>& v, Index i, Index j, Index k) {
  return i >= v.interior[0] && i < v.interior[1] && j >= v.interior[2] && j < v.interior[3] && k >= v.interior[4] &&
         k < v.interior[5];
}

// Applies face f's correction to node (i,j,k) at array offset c, which must lie in f's box and
// have had its main update; `m` is the node's class. Axis: f.axis known at compile time (0, 1,
// 2: the host's per-face loops, which then vectorise) or not (-1); the arithmetic is cpml_apply's.
template <typename Real, bool UpdateH, int Axis = -1>
YEEX_HOST_DEVICE void cpml_correct_node(const CpmlFace<Real>& f, const FieldPointers<Real>& fp, Index c, Index i,
                                        Index j, Index k, Index sy, Index sz, const CellCoefficients<Real>& m) {
  const int d = Axis >= 0 ? Axis : f.axis, a1 = (d + 2) % 3, a2 = (d + 1) % 3;
  const Index stride = d == 0 ? Index(1) : d == 1 ? sy : sz;
  const Index p = f.psi_index(i, j, k), box = f.box();
  // Selected by comparisons, not by indexing a local array (which would put it in local memory).
  const auto e = [&](int a) { return a == 0 ? fp.ex : a == 1 ? fp.ey : fp.ez; };
  const auto h = [&](int a) { return a == 0 ? fp.hx : a == 1 ? fp.hy : fp.hz; };
  Real* psi1 = f.psi + (UpdateH ? 2 * box : 0) + 2 * p;
  Real* psi2 = psi1 + 1;
  // The differences along d: E above minus E here in the H phase, H here minus H below in the E phase.
  Real* out1 = UpdateH ? h(a1) : e(a1);
  Real* out2 = UpdateH ? h(a2) : e(a2);
  const Real* in1 = UpdateH ? e((d + 1) % 3) : h((d + 1) % 3);
  const Real* in2 = UpdateH ? e((d + 2) % 3) : h((d + 2) % 3);
  const Index up = UpdateH ? c + stride : c, down = UpdateH ? c : c - stride;
  const Index along = (d == 0 ? i : d == 1 ? j : k) - f.table_origin;
  Real q1 = *psi1, q2 = *psi2, f1 = out1[c], f2 = out2[c];
  cpml_apply<Real, UpdateH>(d, cpml_profile<Real, UpdateH>(f.table, static_cast<int>(along)), in1[up] - in1[down],
                            in2[up] - in2[down], q1, q2, f1, f2, m);
  *psi1 = q1;
  *psi2 = q2;
  out1[c] = f1;
  out2[c] = f2;
}

// All corrections of node (i,j,k), in face order: what a fused sweep kernel calls right after
// the node's main update. Nodes outside every slab cost one box test.
template <typename Real, bool UpdateH>
YEEX_HOST_DEVICE void cpml_correct(const CpmlView<Real>& v, const FieldPointers<Real>& fp, Index c, Index i, Index j,
                                   Index k, Index sy, Index sz, const CellCoefficients<Real>& m) {
  if (in_cpml_interior(v, i, j, k)) return;
  for (int f = 0; f < v.faces; ++f)
    if (v.face[f].contains(i, j, k)) cpml_correct_node<Real, UpdateH>(v.face[f], fp, c, i, j, k, sy, sz, m);
}

// The split sweep of the cuda engine. A kernel that may apply CPML corrections needs 40
// registers on sm_90 against the plain sweep's 32, which costs every node a quarter of the loads
// in flight (docs/performance.md#cpml-split: one such kernel over everything runs far below the
// PEC speed). So a sweep over a range r runs the plain kernel over `plain`, the nodes of r
// in no face's box, and the CPML kernel over the `shell` boxes, which partition the rest of r:
// below and above `plain` in z (whole x-y planes of r), then in y (whole rows), then in x. The
// plain box's x bounds are rounded inwards to multiples of `align` nodes (the cuda engine: a
// 128-byte line, cpml_split_align; the layout puts node i = 0 on a 128-byte boundary), so its
// warps start on a line; the x boxes take the extra nodes, which need no correction (their face
// test finds none). With `cores`, the z and y boxes are cut further at the plain box's x and y
// bounds: into a core that meets the faces of its own axis only (z: axes 4, y: axes 2), which a
// kernel without the other axes' tests sweeps in fewer registers, and strips along its edges (the
// z boxes' y strips: axes 7, their x strips: 5; the y boxes' x strips: 3). With `whole_rows` there
// are no x boxes: the plain box spans r's rows whole, x faces included (plain_axes 1), and the
// plain kernel sends the warps that meet an x face down the CPML path (the z and y boxes are cut
// as before, at the aligned bounds). Each node's arithmetic is the same in either kernel (main
// update, then the corrections in face order), so the bits do not depend on the split.
inline constexpr int kMaxShellBoxes = 18;
struct CpmlSplit {
  NodeRange plain;
  int plain_axes = 0;  // the axes whose faces may hold nodes of the plain box (whole rows: x)
  NodeRange shell[kMaxShellBoxes];
  int axes[kMaxShellBoxes] = {};  // per shell box, the axes whose faces may hold its nodes (bit d: axis d)
  int shells = 0;
  bool cores = false;  // the z and y boxes cut into cores and strips
};

// The plain box of cpml_split: the interior clipped into r, per axis [lo, hi); x rounded inwards
// to `align`.
template <typename Real>
NodeRange cpml_plain_box(const CpmlView<Real>& v, const NodeRange& r, Index align) {
  const auto clamp = [](Index x, Index lo, Index hi) { return x < lo ? lo : x > hi ? hi : x; };
  const auto round_up = [&](Index x) { return x != -kCpmlUnbounded ? (x + align - 1) / align * align : x; };
  const auto round_down = [&](Index x) { return x != kCpmlUnbounded ? x / align * align : x; };
  const Index i0 = clamp(round_up(v.interior[0]), r.i0, r.i1), i1 = clamp(round_down(v.interior[1]), i0, r.i1);
  const Index j0 = clamp(v.interior[2], r.j0, r.j1), j1 = clamp(v.interior[3], j0, r.j1);
  const Index k0 = clamp(v.interior[4], r.k0, r.k1), k1 = clamp(v.interior[5], k0, r.k1);
  return {i0, i1, j0, j1, k0, k1};
}

// The order of the shell boxes: without cores z_min, z_max, y_min, y_max, x_min, x_max (the boxes
// of an axis next to each other); with cores the z cores, the y cores, then the strips, each kind
// of strip of the two boxes of an axis next to each other, then the x boxes (none with whole rows).
template <typename Real>
CpmlSplit cpml_split(const CpmlView<Real>& v, const NodeRange& r, Index align, bool cores = false,
                     bool whole_rows = false) {
  CpmlSplit s;
  s.plain = cpml_plain_box(v, r, align);
  const Index i0 = s.plain.i0, i1 = s.plain.i1, j0 = s.plain.j0, j1 = s.plain.j1, k0 = s.plain.k0, k1 = s.plain.k1;
  const bool rows = whole_rows && !s.plain.empty();
  if (rows) {
    s.plain.i0 = r.i0, s.plain.i1 = r.i1;
    s.plain_axes = r.i0 < v.interior[0] || r.i1 > v.interior[1] ? 1 : 0;
  }
  s.cores = cores && !s.plain.empty();
  const auto add = [&](const NodeRange& box, int axes) {
    if (!box.empty()) s.axes[s.shells] = axes, s.shell[s.shells++] = box;
  };
  const NodeRange z[2] = {{r.i0, r.i1, r.j0, r.j1, r.k0, k0}, {r.i0, r.i1, r.j0, r.j1, k1, r.k1}};
  const NodeRange y[2] = {{r.i0, r.i1, r.j0, j0, k0, k1}, {r.i0, r.i1, j1, r.j1, k0, k1}};
  const NodeRange x[2] = {{r.i0, i0, j0, j1, k0, k1}, {i1, r.i1, j0, j1, k0, k1}};
  // The z boxes may meet faces of every axis; the y boxes lie between the z faces, the x boxes
  // between the y and z faces too.
  if (!s.cores) {
    for (const NodeRange& box : z) add(box, 7);
    for (const NodeRange& box : y) add(box, 3);
  } else {
    // Piece p of a z box (whole x-y planes): its core (p = 0), its strips below and above the
    // plain box in y (1, 2), and between those, below and above it in x (3, 4). A y box (whole
    // rows) has the core and the x strips, its own rows each.
    const auto piece = [&](NodeRange box, int p, bool z_box) {
      if (z_box && (p == 0 || p >= 3)) box.j0 = j0, box.j1 = j1;
      if (p == 0) box.i0 = i0, box.i1 = i1;
      if (p == 1) box.j1 = j0;
      if (p == 2) box.j0 = j1;
      if (p == 3) box.i1 = i0;
      if (p == 4) box.i0 = i1;
      return box;
    };
    for (const NodeRange& box : z) add(piece(box, 0, true), 4);
    for (const NodeRange& box : y) add(piece(box, 0, false), 2);
    for (int p = 1; p <= 4; ++p)
      for (const NodeRange& box : z) add(piece(box, p, true), p <= 2 ? 7 : 5);
    for (int p = 3; p <= 4; ++p)
      for (const NodeRange& box : y) add(piece(box, p, false), 3);
  }
  if (!rows)
    for (const NodeRange& box : x) add(box, 1);
  return s;
}

// The psi pair and profile values of node `at` in the face of axis d that holds it, into psi[d],
// q[d] and t[d]; false where no face of axis d holds the node.
template <typename Real, bool UpdateH>
YEEX_HOST_DEVICE bool load_cpml_face(const CpmlView<Real>& v, const int (&at)[3], int d, PsiPair<Real>* (&psi)[3],
                                     PsiPair<Real> (&q)[3], CpmlProfile<Real> (&t)[3]) {
  const CpmlSlab<Real>& lower = v.slab[d][0];
  const CpmlSlab<Real>& upper = v.slab[d][1];
  const bool in_lower = static_cast<unsigned>(at[d] - lower.begin) < static_cast<unsigned>(lower.count);
  const bool in_upper = static_cast<unsigned>(at[d] - upper.begin) < static_cast<unsigned>(upper.count);
  if (!in_lower && !in_upper) return false;
  const CpmlSlab<Real>& s = in_lower ? lower : upper;
  psi[d] =
      s.psi[UpdateH ? 1 : 0] + (static_cast<Index>(at[2] - s.k0) * s.plane + ((at[1] - s.j0) * s.row + (at[0] - s.i0)));
  q[d] = *psi[d];
  t[d] = cpml_profile<Real, UpdateH>(s.table, at[d] - s.table_origin);
  return true;
}

// A node of the split sweep's shell: the main update and every correction in registers, then
// one store per component. Each axis has at most one face holding the node (the min and max faces
// of an axis never overlap); its psi and profile values are loaded up front, together with the
// fields, so one round trip to memory serves the node instead of one per face after the stores.
// The operations and their order are those of the main update followed by cpml_correct (the
// differences are CellUpdate's), so the bits are the same. Axes: the axes whose faces may hold
// the node (bit d: axis d; cpml_split's axes); the others are not tested and take no registers.
// Lean: each face's values are loaded after the main update instead, just before its correction
// (the same operations in the same order: the same bits), so fewer values are live at once, for
// a kernel whose registers pace its plain nodes too (coop's persistent kernel, whose CPML
// instantiation then fits 48 registers in float instead of 79). The up-front loop below repeats
// load_cpml_face's body on purpose: calling the helper there grows the engine's f64 shell
// kernels' stack and slows their CPML (docs/performance.md#cpml-split); as written, every engine
// kernel keeps the registers and stack it has without Lean.
template <typename Real, bool UpdateH, int Axes = 7, bool Lean = false>
YEEX_HOST_DEVICE void update_cell_with_cpml(const CpmlView<Real>& v, const FieldPointers<Real>& fp, Index c, Index i,
                                            Index j, Index k, Index sy, Index sz, const CellCoefficients<Real>& m) {
  PsiPair<Real>* psi[3] = {};
  PsiPair<Real> q[3];
  bool in[3] = {};
  CpmlProfile<Real> t[3];
  const int at[3] = {static_cast<int>(i), static_cast<int>(j), static_cast<int>(k)};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int d = 0; d < 3; ++d) {
    if (!(Axes >> d & 1) || Lean) continue;
    const CpmlSlab<Real>& lower = v.slab[d][0];
    const CpmlSlab<Real>& upper = v.slab[d][1];
    const bool in_lower = static_cast<unsigned>(at[d] - lower.begin) < static_cast<unsigned>(lower.count);
    const bool in_upper = static_cast<unsigned>(at[d] - upper.begin) < static_cast<unsigned>(upper.count);
    in[d] = in_lower || in_upper;
    if (!in[d]) continue;
    const CpmlSlab<Real>& s = in_lower ? lower : upper;
    psi[d] = s.psi[UpdateH ? 1 : 0] +
             (static_cast<Index>(at[2] - s.k0) * s.plane + ((at[1] - s.j0) * s.row + (at[0] - s.i0)));
    q[d] = *psi[d];
    t[d] = cpml_profile<Real, UpdateH>(s.table, at[d] - s.table_origin);
  }
  CellUpdate<Real> u = UpdateH ? h_cell_update(fp, c, sy, sz, m) : e_cell_update(fp, c, sy, sz, m);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int d = 0; d < 3; ++d) {
    if (!(Axes >> d & 1)) continue;
    if constexpr (Lean) in[d] = load_cpml_face<Real, UpdateH>(v, at, d, psi, q, t);
    if (!in[d]) continue;
    cpml_apply<Real, UpdateH>(d, t[d], u.diff[d][0], u.diff[d][1], q[d].a1, q[d].a2, u.value[(d + 2) % 3],
                              u.value[(d + 1) % 3], m);
    *psi[d] = q[d];
  }
  if constexpr (UpdateH)
    store_cell(fp.hx, fp.hy, fp.hz, c, u);
  else
    store_cell(fp.ex, fp.ey, fp.ez, c, u);
}

// What the solver hands an engine per face (EngineSetup::cpml): the box and the tables; the
// engine allocates the psi arrays (zero) and points `geometry` at its own copies.
template <typename Real>
struct CpmlFaceSetup {
  CpmlFace<Real> geometry;               // table and psi unset
  std::vector<CpmlProfile<Real>> table;  // two per node along the face's axis (CpmlFace::table)
};

// A run of an engine's state that travels with field planes in a B+2R transfer: CPML psi values
// here, a dispersive material's pole state (kernels/dispersion.hpp).
template <typename Real>
struct StateChunk {
  Real* data = nullptr;
  Index count = 0;
};

// The psi values that travel with the E (electric) or H field planes [k_begin, k_end) (local) in
// a B+2R exchange, one chunk per face (the phase's pairs of those planes) in face order. Neighbouring subdomains have
// the same chunks for the same global planes (same nx, ny and faces), so a sender's list and a
// receiver's list match entry by entry.
template <typename Real>
std::vector<StateChunk<Real>> cpml_plane_chunks(const CpmlView<Real>& v, bool electric, Index k_begin, Index k_end) {
  std::vector<StateChunk<Real>> chunks;
  for (int f = 0; f < v.faces; ++f) {
    const CpmlFace<Real>& face = v.face[f];
    const Index a = k_begin > face.k0 ? k_begin : face.k0;
    const Index b = k_end < face.k0 + face.nk ? k_end : face.k0 + face.nk;
    if (b <= a) continue;
    const Index plane = 2 * face.ni * face.nj;  // values: pairs
    chunks.push_back({face.psi + (electric ? 0 : 2 * face.box()) + (a - face.k0) * plane, (b - a) * plane});
  }
  return chunks;
}

}  // namespace yeex
