// Host engine. Fields live in ordinary vectors; the sweeps run over (k, j) rows with OpenMP and
// over i with `omp simd`. Most rows hold a single material class, so the row's coefficients are
// hoisted out of the inner loop (which then vectorises); mixed rows look the class up per node
// (kernels/row_classes.hpp). Subnormals are flushed to zero in the sweeping threads
// (kernels/host/subnormals.hpp says why).
#include "kernels/host/host_engine.hpp"

#include <algorithm>
#include <array>
#include <cstring>

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
  }

  std::string name() const override { return "host"; }
  const FieldLayout& layout() const override { return setup_.layout; }

  int device() const override { return -1; }

  void update_h(const NodeRange& r, Lane) override {
    sweep(r, [](const FieldPointers<Real>& f, Index c, Index sy, Index sz, const CellCoefficients<Real>& m) {
      update_h_cell(f, c, sy, sz, m);
    });
    correct<true>(r);
  }
  void update_e(const NodeRange& r, Lane) override {
    sweep(r, [](const FieldPointers<Real>& f, Index c, Index sy, Index sz, const CellCoefficients<Real>& m) {
      update_e_cell(f, c, sy, sz, m);
    });
    correct<false>(r);
  }

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
  void read_memory(const Real* from, Index count, Real* host) override { std::copy_n(from, count, host); }
  void write_memory(Real* to, Index count, const Real* host) override { std::copy_n(host, count, to); }
  void* native_stream(Lane) override { return nullptr; }
  void mark(Lane, int) override {}  // one queue: issue order is run order
  void follow(Lane, int) override {}
  void synchronize() override {}

 private:
  template <typename CellUpdate>
  void sweep(const NodeRange& r, CellUpdate cell) {
    const FieldLayout& L = setup_.layout;
    const FieldPointers<Real> f{fields_[0].data(), fields_[1].data(), fields_[2].data(),
                                fields_[3].data(), fields_[4].data(), fields_[5].data()};
    const CellCoefficients<Real>* table = setup_.classes.data();
    const std::uint8_t* classes = setup_.material_class.data();
    const bool full_rows = RowClasses::covers(L, r.i0, r.i1);
    const Index sy = L.pitch_y, sz = L.pitch_z;
#pragma omp parallel
    {
      flush_subnormals_to_zero();
#pragma omp for collapse(2) schedule(static)
      for (Index k = r.k0; k < r.k1; ++k)
        for (Index j = r.j0; j < r.j1; ++j) {
          const Index first = L.offset(r.i0, j, k), last = first + (r.i1 - r.i0);
          const int uniform = full_rows ? row_class_.at(j, k) : -1;
          if (uniform >= 0) {
            const CellCoefficients<Real> m = table[uniform];
#pragma omp simd
            for (Index c = first; c < last; ++c) cell(f, c, sy, sz, m);
          } else {
            for (Index c = first; c < last; ++c) cell(f, c, sy, sz, table[classes[c]]);
          }
        }
    }
  }

  // The CPML pass after a sweep over r (kernels/cpml.hpp says why a separate pass gives the bits
  // of a fused one; it keeps the main loop lean). One parallel region, split over z planes: a
  // node's corrections then run in one thread in face order (x, y, z), as the contract needs.
  template <bool UpdateH>
  void correct(const NodeRange& r) {
    if (cpml_.faces == 0 || r.empty()) return;
    const FieldLayout& L = setup_.layout;
    const FieldPointers<Real> f{fields_[0].data(), fields_[1].data(), fields_[2].data(),
                                fields_[3].data(), fields_[4].data(), fields_[5].data()};
    const CellCoefficients<Real>* table = setup_.classes.data();
    const std::uint8_t* classes = setup_.material_class.data();
    const CpmlView<Real> view = cpml_;
#pragma omp parallel
    {
      flush_subnormals_to_zero();
#pragma omp for schedule(static)
      for (Index k = r.k0; k < r.k1; ++k)
        for (int n = 0; n < view.faces; ++n) {
          const CpmlFace<Real>& face = view.face[n];
          if (k < face.k0 || k >= face.k0 + face.nk) continue;
          const Index i0 = std::max(r.i0, face.i0), i1 = std::min(r.i1, face.i0 + face.ni);
          const Index j0 = std::max(r.j0, face.j0), j1 = std::min(r.j1, face.j0 + face.nj);
          switch (face.axis) {
            case 0: correct_rows<UpdateH, 0>(face, f, i0, i1, j0, j1, k, table, classes); break;
            case 1: correct_rows<UpdateH, 1>(face, f, i0, i1, j0, j1, k, table, classes); break;
            default: correct_rows<UpdateH, 2>(face, f, i0, i1, j0, j1, k, table, classes); break;
          }
        }
    }
  }

  // Rows [j0, j1) of plane k, nodes [i0, i1), of one face; the nodes of a row are independent
  // (a correction writes its own node and psi, and reads the other field), so they vectorise.
  template <bool UpdateH, int Axis>
  void correct_rows(const CpmlFace<Real>& face, const FieldPointers<Real>& f, Index i0, Index i1, Index j0, Index j1,
                    Index k, const CellCoefficients<Real>* table, const std::uint8_t* classes) {
    const FieldLayout& L = setup_.layout;
    const bool within_rows = RowClasses::covers(L, i0, i1);
    for (Index j = j0; j < j1; ++j) {
      const int uniform = within_rows ? row_class_.at(j, k) : -1;
      if (uniform >= 0) {
        const CellCoefficients<Real> m = table[uniform];
#pragma omp simd
        for (Index i = i0; i < i1; ++i)
          cpml_correct_node<Real, UpdateH, Axis>(face, f, L.offset(i, j, k), i, j, k, L.pitch_y, L.pitch_z, m);
      } else {
        for (Index i = i0; i < i1; ++i) {
          const Index c = L.offset(i, j, k);
          cpml_correct_node<Real, UpdateH, Axis>(face, f, c, i, j, k, L.pitch_y, L.pitch_z, table[classes[c]]);
        }
      }
    }
  }

  EngineSetup<Real> setup_;
  std::array<std::vector<Real>, kComponentCount> fields_;
  RowClasses row_class_;
  std::vector<Real> probe_buffer_;
  CpmlView<Real> cpml_;
  std::vector<std::vector<CpmlProfile<Real>>> cpml_tables_;  // per face
  std::vector<std::vector<Real>> cpml_psi_;
};

}  // namespace

template <typename Real>
std::unique_ptr<Engine<Real>> make_host_engine(const EngineSetup<Real>& setup) {
  return std::make_unique<HostEngine<Real>>(setup);
}

template std::unique_ptr<Engine<float>> make_host_engine<float>(const EngineSetup<float>&);
template std::unique_ptr<Engine<double>> make_host_engine<double>(const EngineSetup<double>&);

}  // namespace yeex
