// Kokkos engine. The same loops as the host engine, written once for any Kokkos execution space:
// the fields are Views in the default space's memory; a sweep is one team per (j, k) row, its
// nodes spread over the team's threads and vector lanes (TeamVectorRange), with the row's
// coefficients loaded once when the whole row is of one material class (kernels/row_classes.hpp).
// CPML corrections follow in a second pass, face after face, so that a node's corrections come in
// face order as the contract needs (kernels/cpml.hpp). On a CPU space subnormals are flushed to
// zero in each row's thread, as the host engine does (kernels/host/subnormals.hpp), so the two
// CPU engines give the same bits.
//
// One execution-space instance, the default one: its work runs in issue order, so the lanes need
// no marks (Engine::mark). Verified on Kokkos's OpenMP backend only (README, "The kokkos engine").
#include "kernels/kokkos/kokkos_engine.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>
#include <stdexcept>
#include <string>

#include "kernels/host/subnormals.hpp"
#include "kernels/row_classes.hpp"

namespace yeex {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Memory = Space::memory_space;
using Team = Kokkos::TeamPolicy<Space>::member_type;
template <typename T>
using Array = Kokkos::View<T*, Memory>;
template <typename T>
using Unmanaged = Kokkos::View<T*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <typename T>
using HostUnmanaged = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// A copy of a host vector in the space's memory.
template <typename T>
Array<T> to_space(const std::string& label, const std::vector<T>& v) {
  Array<T> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  Kokkos::deep_copy(a, HostUnmanaged<const T>(v.data(), v.size()));
  return a;
}

// One field value a source adds to or a probe reads.
template <typename Real>
struct FieldNode {
  int component = 0;
  Index offset = 0;
  Real coefficient = 0;  // sources only
};

// The six arrays by component index (Component's order).
template <typename Real>
struct ComponentArrays {
  Real* at[kComponentCount];
};

template <typename Real>
class KokkosEngine final : public Engine<Real> {
 public:
  explicit KokkosEngine(const EngineSetup<Real>& setup) : layout_(setup.layout), cpml_() {
    for (Component c : kAllComponents)
      fields_[static_cast<int>(c)] = Array<Real>(std::string(component_name(c)), layout_.elements());  // zeroed
    material_class_ = to_space("material class", setup.material_class);
    classes_ = to_space("class coefficients", setup.classes);
    const RowClasses rows = RowClasses::make(layout_, setup.material_class);
    row_index_ = rows.index;
    row_class_ = to_space("row classes", rows.uniform);

    std::vector<FieldNode<Real>> sources, probes;
    for (const PointSource& s : setup.sources)
      sources.push_back({static_cast<int>(s.component), s.offset, static_cast<Real>(s.coefficient)});
    for (const ProbePoint& p : setup.probes) probes.push_back({static_cast<int>(p.component), p.offset, Real(0)});
    sources_ = to_space("sources", sources);
    samples_ = to_space("source samples", setup.source_samples);
    probes_ = to_space("probes", probes);
    probe_buffer_ = Array<Real>("probe buffer", probes.size() * setup.probe_slots);

    // CPML: the tables and zeroed psi in the space's memory, pointers in the view.
    cpml_.faces = static_cast<int>(setup.cpml.size());
    for (std::size_t f = 0; f < setup.cpml.size(); ++f) {
      CpmlFace<Real>& face = cpml_.face[f] = setup.cpml[f].geometry;
      cpml_tables_.push_back(to_space("cpml table", setup.cpml[f].table));
      cpml_psi_.push_back(Array<Real>("cpml psi", 4 * face.box()));
      face.table = cpml_tables_.back().data();
      face.psi = cpml_psi_.back().data();
    }
    set_cpml_interior(cpml_);

    // Dispersive materials (kernels/dispersion.hpp): the rows and plane index stay on the host too.
    dispersion_setup_ = setup.dispersion;
    if (!dispersion_setup_.empty()) {
      const DispersionSetup<Real>& d = dispersion_setup_;
      dispersion_rows_ = to_space("dispersive rows", d.rows);
      dispersion_set_of_ = to_space("pole sets of classes", d.set_of);
      dispersion_sets_ = to_space("pole sets", d.sets);
      dispersion_state_ = Array<Real>("pole state", static_cast<std::size_t>(3 * d.states * d.entries));  // zeroed
      dispersion_ = {d.states,
                     d.entries,
                     dispersion_rows_.data(),
                     dispersion_set_of_.data(),
                     dispersion_sets_.data(),
                     dispersion_state_.data()};
    }

    // TF/SF (kernels/tfsf.hpp): the nodes stay on the host too, for the pass's range lookup.
    tfsf_host_[0] = setup.tfsf.h_nodes, tfsf_host_[1] = setup.tfsf.e_nodes;
    tfsf_nodes_[0] = to_space("tfsf h nodes", tfsf_host_[0]);
    tfsf_nodes_[1] = to_space("tfsf e nodes", tfsf_host_[1]);
    tfsf_terms_ = to_space("tfsf terms", setup.tfsf.terms);
    tfsf_incident_ = to_space("tfsf incident", setup.tfsf.incident);
    tfsf_width_ = setup.tfsf.width, tfsf_steps_ = setup.tfsf.steps;
  }

  std::string name() const override { return "kokkos"; }
  const FieldLayout& layout() const override { return layout_; }
  int device() const override { return -1; }

  void update_h(const NodeRange& r, Lane) override {
    sweep<true>(r);
    tfsf_pass(0, r);
  }
  void update_e(const NodeRange& r, Lane) override {
    sweep<false>(r);
    disperse(r);
    tfsf_pass(1, r);
  }
  void fold_sources(Index step) override { tfsf_step_ = step; }

  void inject_sources(Index step) override {
    if (sources_.extent(0) == 0) return;
    const ComponentArrays<Real> fields = arrays();
    const auto sources = sources_;
    const auto samples = samples_;
    const Index n = static_cast<Index>(sources_.extent(0)), first = step * n;
    // One thread, the sources in their order: sources that share a node add up as on the host.
    Kokkos::parallel_for(
        "yeex::inject_sources", Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) {
          for (Index s = 0; s < n; ++s)
            add_source(fields.at[sources(s).component][sources(s).offset], sources(s).coefficient, samples(first + s));
        });
  }

  void sample_probes(Index slot) override {
    const Index n = static_cast<Index>(probes_.extent(0));
    if (n == 0) return;
    const ComponentArrays<Real> fields = arrays();
    const auto probes = probes_;
    const auto buffer = probe_buffer_;
    Kokkos::parallel_for(
        "yeex::sample_probes", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(Index p) { buffer(slot * n + p) = fields.at[probes(p).component][probes(p).offset]; });
  }

  void fetch_probes(Index slots, std::vector<Real>& out) override {
    out.resize(slots * probes_.extent(0));
    read_memory(probe_buffer_.data(), static_cast<Index>(out.size()), out.data());
  }

  void copy_out(Component c, Index offset, Index count, Real* host) override {
    read_memory(field_data(c) + offset, count, host);
  }
  void copy_in(Component c, Index offset, Index count, const Real* host) override {
    write_memory(field_data(c) + offset, count, host);
  }
  Real* field_data(Component c) override { return fields_[static_cast<int>(c)].data(); }
  CpmlView<Real> cpml() const override { return cpml_; }
  std::vector<StateChunk<Real>> dispersion_chunks(Index k_begin, Index k_end) const override {
    return dispersion_plane_chunks(dispersion_setup_, dispersion_, layout_.origin_z, k_begin, k_end);
  }
  // deep_copy fences first: the copy comes after all work issued so far.
  void read_memory(const Real* from, Index count, Real* host) override {
    Kokkos::deep_copy(HostUnmanaged<Real>(host, count), Unmanaged<const Real>(from, count));
  }
  void write_memory(Real* to, Index count, const Real* host) override {
    Kokkos::deep_copy(Unmanaged<Real>(to, count), HostUnmanaged<const Real>(host, count));
  }
  void* native_stream(Lane) override { return nullptr; }
  void mark(Lane, int) override {}  // one instance: issue order is run order
  void follow(Lane, int) override {}
  void synchronize() override { Space().fence("yeex::synchronize"); }

 private:
  // The TF/SF pass after a sweep over r: the corrected nodes of r's planes (one run of the sorted
  // list), field 0 after H, 1 after E, with the open step's row (kernels/tfsf.hpp).
  // The dispersion pass over the dispersive nodes of r, after its E sweep: a league of rows.
  void disperse(const NodeRange& r) {
    if (dispersion_setup_.empty() || r.empty()) return;
    const std::pair<Index, Index> rows = dispersive_rows(dispersion_setup_, layout_.origin_z, r.k0, r.k1);
    const Index first = rows.first, last = rows.second;
    if (last == first) return;
    const ComponentArrays<Real> a = arrays();
    const DispersionView<Real> v = dispersion_;
    const std::uint8_t* classes = material_class_.data();
    const FieldLayout L = layout_;
    const NodeRange range = r;
    Kokkos::parallel_for(
        "yeex::disperse", Kokkos::TeamPolicy<Space>(static_cast<int>(last - first), Kokkos::AUTO),
        KOKKOS_LAMBDA(const Team& team) {
          const DispersiveRow row = v.row[first + team.league_rank()];
          if (row.j < range.j0 || row.j >= range.j1) return;
          const Index i0 = row.i0 > range.i0 ? row.i0 : range.i0;
          const Index i1 = row.i0 + row.count < range.i1 ? row.i0 + row.count : range.i1;
          if (i1 <= i0) return;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, i0, i1), [&](Index i) {
            Real* const e[3] = {a.at[0], a.at[1], a.at[2]};
            const Index offset = L.offset(i, row.j, row.k);
            disperse_node(e, offset, v.set_of + 3 * classes[offset], v, row.first + (i - row.i0));
          });
        });
  }

  void tfsf_pass(int field, const NodeRange& r) {
    const std::vector<TfsfNode>& host = tfsf_host_[field];
    if (host.empty() || r.empty()) return;
    if (tfsf_step_ < 0 || tfsf_step_ >= tfsf_steps_)
      throw std::logic_error("kokkos engine: TF/SF step out of the table");
    const auto by_offset = [](const TfsfNode& node, Index offset) { return node.offset < offset; };
    const auto first = std::lower_bound(host.begin(), host.end(), layout_.plane_offset(r.k0), by_offset);
    const auto last = std::lower_bound(first, host.end(), layout_.plane_offset(r.k1), by_offset);
    const Index begin = first - host.begin(), end = last - host.begin();
    if (begin == end) return;
    const ComponentArrays<Real> arrays_now = arrays();
    const FieldPointers<Real> f{arrays_now.at[0], arrays_now.at[1], arrays_now.at[2],
                                arrays_now.at[3], arrays_now.at[4], arrays_now.at[5]};
    const TfsfNode* nodes = tfsf_nodes_[field].data();
    const TfsfTerm<Real>* terms = tfsf_terms_.data();
    const Real* row = tfsf_incident_.data() + (2 * tfsf_step_ + field) * tfsf_width_;
    const FieldLayout L = layout_;
    const NodeRange range = r;
    Kokkos::parallel_for(
        "yeex::tfsf", Kokkos::RangePolicy<Space>(begin, end), KOKKOS_LAMBDA(Index n) {
          if (tfsf_in_range(nodes[n].offset, L.pitch_y, L.pitch_z, L.origin_x, L.origin_y, L.origin_z, range))
            apply_tfsf_node(f, nodes[n], terms, row);
        });
  }

  DispersionSetup<Real> dispersion_setup_;
  DispersionView<Real> dispersion_;
  Array<DispersiveRow> dispersion_rows_;
  Array<std::int8_t> dispersion_set_of_;
  Array<PoleSet<Real>> dispersion_sets_;
  Array<Real> dispersion_state_;

  std::array<std::vector<TfsfNode>, 2> tfsf_host_;
  std::array<Array<TfsfNode>, 2> tfsf_nodes_;
  Array<TfsfTerm<Real>> tfsf_terms_;
  Array<Real> tfsf_incident_;
  Index tfsf_width_ = 0, tfsf_steps_ = 0, tfsf_step_ = 0;

  ComponentArrays<Real> arrays() {
    ComponentArrays<Real> a;
    for (int c = 0; c < kComponentCount; ++c) a.at[c] = fields_[c].data();
    return a;
  }
  FieldPointers<Real> pointers() {
    const ComponentArrays<Real> a = arrays();
    return {a.at[0], a.at[1], a.at[2], a.at[3], a.at[4], a.at[5]};
  }

  // row(team, j, k) for each row of [j0, j1) x [k0, k1), a team per row.
  template <class Row>
  static void for_each_row(const char* label, Index j0, Index j1, Index k0, Index k1, const Row& row) {
    const Index rows_per_plane = j1 - j0;
    const int rows = static_cast<int>((k1 - k0) * rows_per_plane);
    Kokkos::parallel_for(
        label, Kokkos::TeamPolicy<Space>(rows, Kokkos::AUTO), KOKKOS_LAMBDA(const Team& team) {
          KOKKOS_IF_ON_HOST((flush_subnormals_to_zero();))
          const Index r = team.league_rank();
          row(team, j0 + r % rows_per_plane, k0 + r / rows_per_plane);
        });
  }

  template <bool UpdateH>
  void sweep(const NodeRange& r) {
    if (r.empty()) return;
    const FieldLayout L = layout_;
    const FieldPointers<Real> f = pointers();
    const auto table = classes_;
    const auto material_class = material_class_;
    const auto row_class = row_class_;
    const RowIndex row_index = row_index_;
    const bool full_rows = RowClasses::covers(L, r.i0, r.i1);
    const Index i0 = r.i0, nodes = r.i1 - r.i0;
    for_each_row(
        UpdateH ? "yeex::update_h" : "yeex::update_e", r.j0, r.j1, r.k0, r.k1,
        KOKKOS_LAMBDA(const Team& team, Index j, Index k) {
          const Index first = L.offset(i0, j, k);
          const int uniform = full_rows ? row_class(row_index(j, k)) : -1;
          if (uniform >= 0) {
            const CellCoefficients<Real> m = table(uniform);
            Kokkos::parallel_for(Kokkos::TeamVectorRange(team, nodes),
                                 [&](Index i) { update_cell<UpdateH>(f, first + i, L.pitch_y, L.pitch_z, m); });
          } else {
            Kokkos::parallel_for(Kokkos::TeamVectorRange(team, nodes), [&](Index i) {
              update_cell<UpdateH>(f, first + i, L.pitch_y, L.pitch_z, table(material_class(first + i)));
            });
          }
        });
    correct<UpdateH>(r);
  }

  template <bool UpdateH>
  KOKKOS_INLINE_FUNCTION static void update_cell(const FieldPointers<Real>& f, Index c, Index sy, Index sz,
                                                 const CellCoefficients<Real>& m) {
    if constexpr (UpdateH)
      update_h_cell(f, c, sy, sz, m);
    else
      update_e_cell(f, c, sy, sz, m);
  }

  // The CPML pass after a sweep over r: one face after another, each over its box within r.
  template <bool UpdateH>
  void correct(const NodeRange& r) {
    for (int n = 0; n < cpml_.faces; ++n) {
      const CpmlFace<Real>& face = cpml_.face[n];
      const NodeRange box{std::max(r.i0, face.i0), std::min(r.i1, face.i0 + face.ni),
                          std::max(r.j0, face.j0), std::min(r.j1, face.j0 + face.nj),
                          std::max(r.k0, face.k0), std::min(r.k1, face.k0 + face.nk)};
      if (box.empty()) continue;
      switch (face.axis) {
        case 0: correct_face<UpdateH, 0>(face, box); break;
        case 1: correct_face<UpdateH, 1>(face, box); break;
        default: correct_face<UpdateH, 2>(face, box); break;
      }
    }
  }

  template <bool UpdateH, int Axis>
  void correct_face(const CpmlFace<Real>& face, const NodeRange& box) {
    const FieldLayout L = layout_;
    const FieldPointers<Real> f = pointers();
    const auto table = classes_;
    const auto material_class = material_class_;
    const Index i0 = box.i0, nodes = box.i1 - box.i0;
    for_each_row(
        "yeex::cpml", box.j0, box.j1, box.k0, box.k1, KOKKOS_LAMBDA(const Team& team, Index j, Index k) {
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, nodes), [&](Index n) {
            const Index i = i0 + n, c = L.offset(i, j, k);
            cpml_correct_node<Real, UpdateH, Axis>(face, f, c, i, j, k, L.pitch_y, L.pitch_z, table(material_class(c)));
          });
        });
  }

  FieldLayout layout_;
  std::array<Array<Real>, kComponentCount> fields_;
  Array<std::uint8_t> material_class_;
  Array<CellCoefficients<Real>> classes_;
  RowIndex row_index_;
  Array<int> row_class_;
  Array<FieldNode<Real>> sources_;
  Array<Real> samples_;
  Array<FieldNode<Real>> probes_;
  Array<Real> probe_buffer_;
  CpmlView<Real> cpml_;
  std::vector<Array<CpmlProfile<Real>>> cpml_tables_;  // per face
  std::vector<Array<Real>> cpml_psi_;
};

}  // namespace

std::string kokkos_description() {
  std::string d = "Kokkos " + std::to_string(KOKKOS_VERSION_MAJOR) + "." + std::to_string(KOKKOS_VERSION_MINOR) + "." +
                  std::to_string(KOKKOS_VERSION_PATCH) + " on " + Space::name();
  if (Kokkos::is_initialized()) d += ", " + std::to_string(Space().concurrency()) + " threads";
  return d;
}

bool kokkos_ready() { return Kokkos::is_initialized(); }

KokkosRuntime::KokkosRuntime() {
  // Kokkos's advice on OMP_PROC_BIND would interleave with yeex's own output.
  Kokkos::initialize(Kokkos::InitializationSettings().set_disable_warnings(true));
}

KokkosRuntime::~KokkosRuntime() { Kokkos::finalize(); }

template <typename Real>
std::unique_ptr<Engine<Real>> make_kokkos_engine(const EngineSetup<Real>& setup) {
  return std::make_unique<KokkosEngine<Real>>(setup);
}

template std::unique_ptr<Engine<float>> make_kokkos_engine<float>(const EngineSetup<float>&);
template std::unique_ptr<Engine<double>> make_kokkos_engine<double>(const EngineSetup<double>&);

}  // namespace yeex
