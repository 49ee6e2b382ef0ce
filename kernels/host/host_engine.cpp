// Host engine. Fields live in ordinary vectors; the sweeps run over (k, j) rows with OpenMP and
// over i with `omp simd`. Most rows hold a single material class, so the row's coefficients are
// hoisted out of the inner loop (which then vectorises); mixed rows look the class up per node
// (kernels/row_classes.hpp). In a CPML slab a node's corrections follow its main update in
// registers, as in the cuda engine's shell kernels (kernels/cpml.hpp: the same bits as a separate
// pass, without a second trip through memory). Subnormals are flushed to zero in the sweeping
// threads (kernels/host/subnormals.hpp says why).
#include "kernels/host/host_engine.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kernels/host/subnormals.hpp"
#include "kernels/row_classes.hpp"

namespace yeex {
namespace {

template <typename Real>
class HostEngine final : public Engine<Real> {
 public:
  explicit HostEngine(const EngineSetup<Real>& setup)
      : setup_(setup),
        row_class_(RowClasses::make(setup.layout, setup.material_class)),
        probe_buffer_(setup.probes.size() * setup.probe_slots) {
    for (auto& a : fields_) a.assign(setup_.layout.elements(), Real(0));
    // CPML: own copies of the tables, zero psi, pointers in the view.
    cpml_tables_.resize(setup_.cpml.size());
    cpml_psi_.resize(setup_.cpml.size());
    cpml_.faces = static_cast<int>(setup_.cpml.size());
    for (std::size_t f = 0; f < setup_.cpml.size(); ++f) {
      CpmlFace<Real>& face = cpml_.face[f] = setup_.cpml[f].geometry;
      cpml_tables_[f] = setup_.cpml[f].table;
      cpml_psi_[f].assign(4 * face.box(), Real(0));
      face.table = cpml_tables_[f].data();
      face.psi = cpml_psi_[f].data();
    }
    set_cpml_interior(cpml_);
    const DispersionSetup<Real>& d = setup_.dispersion;
    if (!d.empty()) {
      dispersion_state_.assign(static_cast<std::size_t>(3 * d.states * d.entries), Real(0));
      dispersion_ = {d.states, d.entries, d.rows.data(), d.set_of.data(), d.sets.data(), dispersion_state_.data()};
    }
  }

  std::string name() const override { return "host"; }
  const FieldLayout& layout() const override { return setup_.layout; }

  int device() const override { return -1; }

  void update_h(const NodeRange& r, Lane) override {
    sweep<true>(r, [](const FieldPointers<Real>& f, Index c, Index sy, Index sz, const CellCoefficients<Real>& m) {
      update_h_cell(f, c, sy, sz, m);
    });
    apply_tfsf(setup_.tfsf.h_nodes, 0, r);
  }
  void update_e(const NodeRange& r, Lane) override {
    sweep<false>(r, [](const FieldPointers<Real>& f, Index c, Index sy, Index sz, const CellCoefficients<Real>& m) {
      update_e_cell(f, c, sy, sz, m);
    });
    disperse(r);
    apply_tfsf(setup_.tfsf.e_nodes, 1, r);
  }
  void fold_sources(Index step) override { step_ = step; }

  void inject_sources(Index step) override {
    const std::size_t n = setup_.sources.size();
    for (std::size_t s = 0; s < n; ++s) {
      const PointSource& src = setup_.sources[s];
      add_source(fields_[static_cast<int>(src.component)][src.offset], static_cast<Real>(src.coefficient),
                 setup_.source_samples[step * n + s]);
    }
  }

  void sample_probes(Index slot) override {
    const std::size_t n = setup_.probes.size();
    for (std::size_t p = 0; p < n; ++p) {
      const ProbePoint& probe = setup_.probes[p];
      probe_buffer_[slot * n + p] = fields_[static_cast<int>(probe.component)][probe.offset];
    }
  }

  void fetch_probes(Index slots, std::vector<Real>& out) override {
    out.assign(probe_buffer_.begin(), probe_buffer_.begin() + slots * setup_.probes.size());
  }

  void copy_out(Component c, Index offset, Index count, Real* host) override {
    std::copy_n(fields_[static_cast<int>(c)].data() + offset, count, host);
  }
  void copy_in(Component c, Index offset, Index count, const Real* host) override {
    std::copy_n(host, count, fields_[static_cast<int>(c)].data() + offset);
  }
  Real* field_data(Component c) override { return fields_[static_cast<int>(c)].data(); }
  CpmlView<Real> cpml() const override { return cpml_; }
  std::vector<StateChunk<Real>> dispersion_chunks(Index k_begin, Index k_end) const override {
    return dispersion_plane_chunks(setup_.dispersion, dispersion_, setup_.layout.origin_z, k_begin, k_end);
  }
  void read_memory(const Real* from, Index count, Real* host) override { std::copy_n(from, count, host); }
  void write_memory(Real* to, Index count, const Real* host) override { std::copy_n(host, count, to); }
  void* native_stream(Lane) override { return nullptr; }
  void mark(Lane, int) override {}  // one queue: issue order is run order
  void follow(Lane, int) override {}
  void synchronize() override {}

  // The exponent bits of every value tested, all six arrays, their planes shared among the
  // threads: an integer test (all ones: Inf or NaN), so it vectorises and subnormals cost
  // nothing; no early exit, as the arrays are streamed at memory speed anyway.
  bool fields_finite() override {
    using Bits = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;
    constexpr Bits exponent = sizeof(Real) == 4 ? Bits(0x7f800000u) : Bits(0x7ff0000000000000ull);
    const FieldLayout& L = setup_.layout;
    const Index planes = L.planes, plane = L.pitch_z;
    int bad = 0;
#pragma omp parallel for schedule(static) reduction(| : bad)
    for (Index k = 0; k < planes; ++k)
      for (const auto& field : fields_) {
        const Real* values = field.data() + k * plane;
        Bits all = 0;  // exponent bits of a non-finite value seen, or 0
#pragma omp simd reduction(| : all)
        for (Index e = 0; e < plane; ++e) {
          const Bits b = std::bit_cast<Bits>(values[e]) & exponent;
          all |= b == exponent ? exponent : Bits(0);
        }
        bad |= all != 0;
      }
    return bad == 0;
  }

 private:
  template <bool UpdateH, typename CellUpdate>
  void sweep(const NodeRange& r, CellUpdate cell) {
    if (r.empty()) return;
    const FieldPointers<Real> f{fields_[0].data(), fields_[1].data(), fields_[2].data(),
                                fields_[3].data(), fields_[4].data(), fields_[5].data()};
    const CpmlView<Real> view = cpml_;
    const RowSegments segments = row_segments(view, r.i0, r.i1);
#pragma omp parallel
    {
      flush_subnormals_to_zero();
#pragma omp for collapse(2) schedule(static)
      for (Index k = r.k0; k < r.k1; ++k)
        for (Index j = r.j0; j < r.j1; ++j) {
          if (view.faces == 0)
            update_nodes(f, r.i0, r.i1, j, k, cell);
          else
            update_row_with_cpml<UpdateH>(view, segments, f, j, k, cell);
        }
    }
  }

  // The dispersion pass (kernels/dispersion.hpp) over the dispersive nodes of r, after its sweep.
  void disperse(const NodeRange& r) {
    const DispersionSetup<Real>& d = setup_.dispersion;
    if (d.empty() || r.empty()) return;
    const FieldLayout& L = setup_.layout;
    // Not a structured binding: clang 16 crashes on one in an OpenMP loop's bounds.
    const std::pair<Index, Index> rows = dispersive_rows(d, L.origin_z, r.k0, r.k1);
    const Index first = rows.first, last = rows.second;
    Real* const e[3] = {fields_[0].data(), fields_[1].data(), fields_[2].data()};
    const std::uint8_t* classes = setup_.material_class.data();
    const DispersionView<Real> v = dispersion_;
#pragma omp parallel
    {
      flush_subnormals_to_zero();
#pragma omp for schedule(static)
      for (Index q = first; q < last; ++q) {
        const DispersiveRow& row = d.rows[q];
        if (row.j < r.j0 || row.j >= r.j1) continue;
        const Index a = std::max(row.i0, r.i0), b = std::min(row.i0 + row.count, r.i1);
        for (Index i = a; i < b; ++i) {
          const Index offset = L.offset(i, row.j, row.k);
          disperse_node(e, offset, d.set_of.data() + 3 * classes[offset], v, row.first + (i - row.i0));
        }
      }
    }
  }

  // Nodes [i0, i1) of row (j, k): the main update only.
  template <typename CellUpdate>
  void update_nodes(const FieldPointers<Real>& f, Index i0, Index i1, Index j, Index k, CellUpdate cell) const {
    const FieldLayout& L = setup_.layout;
    const Index first = L.offset(i0, j, k), last = first + (i1 - i0), sy = L.pitch_y, sz = L.pitch_z;
    const CellCoefficients<Real>* table = setup_.classes.data();
    const int uniform = RowClasses::covers(L, i0, i1) ? row_class_.at(j, k) : -1;
    if (uniform >= 0) {
      const CellCoefficients<Real> m = table[uniform];
#pragma omp simd
      for (Index c = first; c < last; ++c) cell(f, c, sy, sz, m);
    } else {
      const std::uint8_t* classes = setup_.material_class.data();
      for (Index c = first; c < last; ++c) cell(f, c, sy, sz, table[classes[c]]);
    }
  }

  // The CPML faces that hold one segment of a row, per axis d (bit d of the segment's axes):
  // psi[d] the pair of the segment's first node in this phase, profile[d] its profile (x: the
  // profile of node n of the segment at profile[0][2 n]; y and z: one for the whole row).
  struct SegmentFaces {
    PsiPair<Real>* psi[3] = {};
    const CpmlProfile<Real>* profile[3] = {};
  };

  // The nodes [i0, i1) of a row cut where a face's box begins or ends along x: faces[s], bit n,
  // says that face n's box covers segment s along x (whether it holds the row depends on the row).
  struct RowSegments {
    Index cut[2 * kMaxCpmlFaces + 2];
    int faces[2 * kMaxCpmlFaces + 1];
    int count = 0;  // segments
  };

  static RowSegments row_segments(const CpmlView<Real>& view, Index i0, Index i1) {
    RowSegments s;
    Index cut[2 * kMaxCpmlFaces + 2];
    int cuts = 0;
    cut[cuts++] = i0, cut[cuts++] = i1;
    for (int n = 0; n < view.faces; ++n) {
      const CpmlFace<Real>& face = view.face[n];
      cut[cuts++] = std::clamp(face.i0, i0, i1), cut[cuts++] = std::clamp(face.i0 + face.ni, i0, i1);
    }
    std::sort(cut, cut + cuts);
    s.cut[0] = cut[0];
    for (int c = 1; c < cuts; ++c) {
      if (cut[c] == s.cut[s.count]) continue;
      const Index a = s.cut[s.count];
      int& faces = s.faces[s.count];
      faces = 0;
      for (int n = 0; n < view.faces; ++n)
        if (a >= view.face[n].i0 && a < view.face[n].i0 + view.face[n].ni) faces |= 1 << n;
      s.cut[++s.count] = cut[c];
    }
    return s;
  }

  // Row (j, k) when the engine has CPML faces, segment by segment (RowSegments): the same faces
  // hold every node of a segment. A segment in no face gets the main update alone; one in faces
  // gets, node by node, the main update and then each correction in face order (x, y, z), in
  // registers, and one store per component: the operations of update_cell_with_cpml
  // (kernels/cpml.hpp), so the bits of a separate pass after the sweep.
  template <bool UpdateH, typename CellUpdate>
  void update_row_with_cpml(const CpmlView<Real>& view, const RowSegments& segments, const FieldPointers<Real>& f,
                            Index j, Index k, CellUpdate cell) const {
    int holding = 0;  // bit n: face n's box holds row (j, k)
    for (int n = 0; n < view.faces; ++n)
      if (view.face[n].contains(view.face[n].i0, j, k)) holding |= 1 << n;
    for (int s = 0; s < segments.count; ++s) {
      const Index a = segments.cut[s], b = segments.cut[s + 1];
      const int active = segments.faces[s] & holding;
      if (active == 0) {
        update_nodes(f, a, b, j, k, cell);
        continue;
      }
      SegmentFaces faces;
      int axes = 0;
      for (int n = 0; n < view.faces; ++n) {
        if (!(active >> n & 1)) continue;
        const CpmlFace<Real>& face = view.face[n];
        const int d = face.axis;
        axes |= 1 << d;
        faces.psi[d] =
            reinterpret_cast<PsiPair<Real>*>(face.psi + (UpdateH ? 2 * face.box() : 0)) + face.psi_index(a, j, k);
        const Index along = (d == 0 ? a : d == 1 ? j : k) - face.table_origin;
        faces.profile[d] = face.table + 2 * along + (UpdateH ? 1 : 0);
      }
      switch (axes) {
        case 1: update_segment<UpdateH, 1>(f, a, b, j, k, faces); break;
        case 2: update_segment<UpdateH, 2>(f, a, b, j, k, faces); break;
        case 3: update_segment<UpdateH, 3>(f, a, b, j, k, faces); break;
        case 4: update_segment<UpdateH, 4>(f, a, b, j, k, faces); break;
        case 5: update_segment<UpdateH, 5>(f, a, b, j, k, faces); break;
        case 6: update_segment<UpdateH, 6>(f, a, b, j, k, faces); break;
        default: update_segment<UpdateH, 7>(f, a, b, j, k, faces); break;
      }
    }
  }

  // Nodes [i0, i1) of row (j, k), every one in a face of each axis of Axes (bit d: axis d).
  // Flattened: GCC's inliner otherwise gives up on the cell update in the larger instantiations,
  // and a call in the loop stops it from vectorising.
  template <bool UpdateH, int Axes>
  __attribute__((flatten)) void update_segment(const FieldPointers<Real>& f, Index i0, Index i1, Index j, Index k,
                                               const SegmentFaces& faces) const {
    const FieldLayout& L = setup_.layout;
    const Index first = L.offset(i0, j, k), count = i1 - i0, sy = L.pitch_y, sz = L.pitch_z;
    const CellCoefficients<Real>* table = setup_.classes.data();
    const int uniform = RowClasses::covers(L, i0, i1) ? row_class_.at(j, k) : -1;
    PsiPair<Real>* const psi_x = faces.psi[0];
    PsiPair<Real>* const psi_y = faces.psi[1];
    PsiPair<Real>* const psi_z = faces.psi[2];
    const CpmlProfile<Real>* const profile_x = faces.profile[0];
    const CpmlProfile<Real> profile_y = Axes & 2 ? *faces.profile[1] : CpmlProfile<Real>{};
    const CpmlProfile<Real> profile_z = Axes & 4 ? *faces.profile[2] : CpmlProfile<Real>{};
    const auto node = [&](Index n, const CellCoefficients<Real>& m) {
      const Index c = first + n;
      CellUpdate<Real> u = UpdateH ? h_cell_update(f, c, sy, sz, m) : e_cell_update(f, c, sy, sz, m);
      if constexpr ((Axes & 1) != 0) {
        PsiPair<Real> q = psi_x[n];
        cpml_apply<Real, UpdateH>(0, profile_x[2 * n], u.diff[0][0], u.diff[0][1], q.a1, q.a2, u.value[2], u.value[1],
                                  m);
        psi_x[n] = q;
      }
      if constexpr ((Axes & 2) != 0) {
        PsiPair<Real> q = psi_y[n];
        cpml_apply<Real, UpdateH>(1, profile_y, u.diff[1][0], u.diff[1][1], q.a1, q.a2, u.value[0], u.value[2], m);
        psi_y[n] = q;
      }
      if constexpr ((Axes & 4) != 0) {
        PsiPair<Real> q = psi_z[n];
        cpml_apply<Real, UpdateH>(2, profile_z, u.diff[2][0], u.diff[2][1], q.a1, q.a2, u.value[1], u.value[0], m);
        psi_z[n] = q;
      }
      if constexpr (UpdateH)
        store_cell(f.hx, f.hy, f.hz, c, u);
      else
        store_cell(f.ex, f.ey, f.ez, c, u);
    };
    if (uniform >= 0) {
      const CellCoefficients<Real> m = table[uniform];
#pragma omp simd
      for (Index n = 0; n < count; ++n) node(n, m);
    } else {
      const std::uint8_t* classes = setup_.material_class.data();
      for (Index n = 0; n < count; ++n) node(n, table[classes[first + n]]);
    }
  }

  // The TF/SF pass after a sweep of range r (kernels/tfsf.hpp): the nodes of `nodes` in r, with
  // the table row of the open step's E (field 0, after H) or H (field 1, after E). Nodes are
  // sorted by offset, so those of r's planes are one run.
  void apply_tfsf(const std::vector<TfsfNode>& nodes, int field, const NodeRange& r) {
    if (nodes.empty() || r.empty()) return;
    const TfsfSetup<Real>& t = setup_.tfsf;
    if (step_ < 0 || step_ >= t.steps) throw std::logic_error("host engine: TF/SF step out of the table");
    const FieldLayout& L = setup_.layout;
    const auto by_offset = [](const TfsfNode& node, Index offset) { return node.offset < offset; };
    const auto first = std::lower_bound(nodes.begin(), nodes.end(), L.plane_offset(r.k0), by_offset);
    const auto last = std::lower_bound(first, nodes.end(), L.plane_offset(r.k1), by_offset);
    const FieldPointers<Real> f{fields_[0].data(), fields_[1].data(), fields_[2].data(),
                                fields_[3].data(), fields_[4].data(), fields_[5].data()};
    const Real* row = t.incident.data() + (2 * step_ + field) * t.width;
    const TfsfTerm<Real>* terms = t.terms.data();
    const Index count = last - first;
    const TfsfNode* run = nodes.data() + (first - nodes.begin());
#pragma omp parallel if (count > 4096)
    {
      flush_subnormals_to_zero();  // as the sweeps
#pragma omp for schedule(static)
      for (Index n = 0; n < count; ++n)
        if (tfsf_in_range(run[n].offset, L.pitch_y, L.pitch_z, L.origin_x, L.origin_y, L.origin_z, r))
          apply_tfsf_node(f, run[n], terms, row);
    }
  }

  EngineSetup<Real> setup_;
  Index step_ = 0;  // the open step (fold_sources)
  std::array<std::vector<Real>, kComponentCount> fields_;
  RowClasses row_class_;
  std::vector<Real> probe_buffer_;
  CpmlView<Real> cpml_;
  std::vector<std::vector<CpmlProfile<Real>>> cpml_tables_;  // per face
  std::vector<std::vector<Real>> cpml_psi_;
  DispersionView<Real> dispersion_;
  std::vector<Real> dispersion_state_;
};

}  // namespace

template <typename Real>
std::unique_ptr<Engine<Real>> make_host_engine(const EngineSetup<Real>& setup) {
  return std::make_unique<HostEngine<Real>>(setup);
}

template std::unique_ptr<Engine<float>> make_host_engine<float>(const EngineSetup<float>&);
template std::unique_ptr<Engine<double>> make_host_engine<double>(const EngineSetup<double>&);

}  // namespace yeex
