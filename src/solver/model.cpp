#include "src/solver/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <set>

#include "physics/constants.hpp"
#include "physics/dispersion.hpp"
#include "physics/material.hpp"
#include "src/solver/cpml_setup.hpp"

namespace yeex {
namespace {

constexpr std::int16_t kFreeSpace = 0;
constexpr std::int16_t kPec = 1;

// The point-in-object test runs in two steps, both with `<=` so that the surface counts as
// inside: each axis on its own (the object's extent along that axis: a box's sides, centre ±
// radius for a sphere, and for a cylinder its lower/upper along the axis, centre ± radius across
// it), then, for a curved object and a point that passed all three axes, the squared distance
// from the centre (sphere) or the axis (cylinder). class_key runs the axis step once per node and
// object for all six components at once, which rejects most objects before any multiplication.

// The squared distances are rounded; this relative slack on the radius keeps a point that lies
// on the surface in exact arithmetic inside.
constexpr double kRadiusSlack = 1e-9;

// kHalfCell[c][d]: 1 where component c sits half a cell above its node along axis d, else 0.
constexpr auto kHalfCell = [] {
  std::array<std::array<int, 3>, kComponentCount> half{};
  for (Component c : kAllComponents)
    for (int d = 0; d < 3; ++d) half[static_cast<int>(c)][d] = stagger(c)[d] != 0 ? 1 : 0;
  return half;
}();

double slack_radius(const GeometryObject& o) { return o.radius * (1 + kRadiusSlack); }

// Coordinates along one axis of node index n's components: at the node, half a cell above it.
std::array<double, 2> node_coordinates(Index n, double cell) { return {(n + 0.0) * cell, (n + 0.5) * cell}; }

// Does coordinate x along axis d lie within the object's extent along d?
bool within_along(const GeometryObject& o, int d, double x, double radius) {
  switch (o.shape) {
    case ShapeKind::box: return o.lower[d] <= x && x <= o.upper[d];
    case ShapeKind::sphere: return std::abs(x - o.centre[d]) <= radius;
    case ShapeKind::cylinder:
      return d == o.axis ? (o.axis_lower <= x && x <= o.axis_upper) : std::abs(x - o.centre[d]) <= radius;
  }
  return false;
}

// For a point within the object's extent along every axis: is it inside?
bool inside_across(const GeometryObject& o, const Vec3& p, double radius) {
  if (o.shape == ShapeKind::box) return true;
  double squared = 0;
  for (int d = 0; d < 3; ++d)
    if (o.shape == ShapeKind::sphere || d != o.axis) squared += (p[d] - o.centre[d]) * (p[d] - o.centre[d]);
  return squared <= radius * radius;
}

// Is component c at node (i,j,k) a live unknown? E must not be tangential to an outer PEC face
// (index strictly inside along the two other axes) and must lie inside along its own axis; H
// must lie inside along the two other axes.
bool component_in_grid(Component c, const std::array<Index, 3>& n, const std::array<Index, 3>& cells) {
  const int a = axis_of(c);
  for (int d = 0; d < 3; ++d) {
    if (n[d] < 0 || n[d] > cells[d]) return false;
    const bool along = d == a;
    if (is_electric(c)) {
      if (along ? n[d] >= cells[d] : (n[d] == 0 || n[d] == cells[d])) return false;
    } else if (!along && n[d] >= cells[d]) {
      return false;
    }
  }
  return true;
}

// Sorted-position lookup of a key in the class table.
std::uint8_t class_index(const std::vector<ClassKey>& classes, const ClassKey& key) {
  const auto it = std::lower_bound(classes.begin(), classes.end(), key);
  return static_cast<std::uint8_t>(it - classes.begin());
}

// Along axis d, a node index n (0 <= n <= cells) enters class_key only through its signature:
// whether n is the first node, an inner one or the last (component_in_grid), which of n's two
// coordinates each object's extent holds (within_along; objects that hold neither are left
// out), and n itself for an object curved across d that holds one (inside_across measures the
// distance). Indices with equal signatures give equal keys whatever the other two indices are,
// so a plane (or row, or node) of keys is computed once per signature and copied to the planes
// (rows, nodes) that share it.
std::vector<Index> axis_signature(const Model& model, int d, Index n) {
  const Index cells = model.grid.as_array()[d];
  std::vector<Index> signature{n == 0 ? 0 : n < cells ? 1 : 2};
  const std::array<double, 2> x = node_coordinates(n, model.cell[d]);
  for (std::size_t o = 0; o < model.deck.geometry.size(); ++o) {
    const GeometryObject& object = model.deck.geometry[o];
    const double radius = slack_radius(object);
    const bool lower = within_along(object, d, x[0], radius), upper = within_along(object, d, x[1], radius);
    if (!lower && !upper) continue;
    const bool curved_across =
        object.shape == ShapeKind::sphere || (object.shape == ShapeKind::cylinder && object.axis != d);
    signature.insert(signature.end(), {static_cast<Index>(o), lower + 2 * upper, curved_across ? n : -1});
  }
  return signature;
}

// For each index n in [first, last) along axis d: the first index of that range with n's
// signature (n itself when it is the first).
std::vector<Index> first_alike(const Model& model, int d, Index first, Index last) {
  std::map<std::vector<Index>, Index> seen;
  std::vector<Index> alike;
  for (Index n = first; n < last; ++n) alike.push_back(seen.try_emplace(axis_signature(model, d, n), n).first->second);
  return alike;
}

}  // namespace

std::array<Index, 3> nearest_node(const GridShape& grid, const Vec3& cell, const Vec3& p) {
  std::array<Index, 3> n{};
  const auto cells = grid.as_array();
  for (int d = 0; d < 3; ++d) n[d] = std::clamp<Index>(static_cast<Index>(std::llround(p[d] / cell[d])), 0, cells[d]);
  return n;
}

std::array<Index, 3> Model::nearest_node(const Vec3& p) const { return yeex::nearest_node(grid, cell, p); }

ClassKey Model::class_key(Index i, Index j, Index k) const {
  const std::array<Index, 3> n{i, j, k};
  // Along each axis a component of this node sits at the node (half = 0) or half a cell above
  // it (half = 1), depending on its stagger.
  std::array<std::array<double, 2>, 3> x;
  for (int d = 0; d < 3; ++d) x[d] = node_coordinates(n[d], cell[d]);

  std::array<std::int16_t, kComponentCount> material;
  material.fill(kFreeSpace);
  for (std::size_t o = 0; o < deck.geometry.size(); ++o) {
    const GeometryObject& object = deck.geometry[o];
    const double radius = slack_radius(object);
    // within[d][h]: x[d][h] lies within the object's extent along d.
    std::array<std::array<bool, 2>, 3> within;
    bool reaches_node = true;
    for (int d = 0; d < 3 && reaches_node; ++d) {
      within[d] = {within_along(object, d, x[d][0], radius), within_along(object, d, x[d][1], radius)};
      reaches_node = within[d][0] || within[d][1];
    }
    if (!reaches_node) continue;
    for (int c = 0; c < kComponentCount; ++c) {
      const auto& h = kHalfCell[c];
      if (within[0][h[0]] && within[1][h[1]] && within[2][h[2]] &&
          inside_across(object, {x[0][h[0]], x[1][h[1]], x[2][h[2]]}, radius))
        material[c] = object_material[o];  // later objects win
    }
  }

  ClassKey key;
  const auto cells = grid.as_array();
  for (Component c : kAllComponents) {
    const auto m = material[static_cast<int>(c)];
    const bool pinned = !component_in_grid(c, n, cells) || (is_electric(c) && materials[m].pec);
    key[static_cast<int>(c)] = pinned ? kPinned : m;
  }
  return key;
}

double Model::constitutive(const ClassKey& key, Component c) const {
  const auto m = key[static_cast<int>(c)];
  if (m == kPinned) return 0.0;
  return is_electric(c) ? materials[m].eps_r * kEps0 : materials[m].mu_r * kMu0;
}

double waveform_value(WaveformKind kind, double f, double t) {
  constexpr double pi = std::numbers::pi;
  switch (kind) {
    case WaveformKind::gaussian: {
      const double zeta = 2 * pi * pi * f * f, tau = t - 1 / f;
      return std::exp(-zeta * tau * tau);
    }
    case WaveformKind::gaussian_derivative: {
      const double zeta = 2 * pi * pi * f * f, tau = t - 1 / f;
      return -2 * zeta * tau * std::exp(-zeta * tau * tau);
    }
    case WaveformKind::ricker: {
      const double zeta = pi * pi * f * f, tau = t - std::numbers::sqrt2 / f;
      return -(2 * zeta * tau * tau - 1) * std::exp(-zeta * tau * tau);
    }
    case WaveformKind::ramped_sine: return std::min(0.25 * f * t, 1.0) * std::sin(2 * pi * f * t);
  }
  return 0.0;
}

Model build_model(const Deck& deck, bool with_samples) {
  Model model;
  model.deck = deck;
  model.grid = deck.grid;
  model.cell = deck.cell_size;
  model.dt = deck.dt();
  model.steps = deck.step_count();
  model.materials = {*find_material(deck, "free_space"), *find_material(deck, "pec")};
  for (const auto& m : deck.materials) model.materials.push_back(m);
  if (model.materials.size() > 250) throw DeckError("material", "at most 248 materials are supported");

  for (const auto& object : deck.geometry) {
    const auto it = std::find_if(model.materials.begin(), model.materials.end(),
                                 [&](const Material& m) { return m.name == object.material; });
    model.object_material.push_back(static_cast<std::int16_t>(it - model.materials.begin()));
  }

  // Distinct classes over every node (plus the all-pinned class of pads and ghosts): one node
  // per triple of axis signatures holds them all (axis_signature).
  const GridShape g = model.grid;
  const auto first_of_kind = [&](int d, Index nodes) {
    const std::vector<Index> alike = first_alike(model, d, 0, nodes);
    std::vector<Index> firsts;
    for (Index n = 0; n < nodes; ++n)
      if (alike[n] == n) firsts.push_back(n);
    return firsts;
  };
  const std::vector<Index> is = first_of_kind(0, g.nx + 1), js = first_of_kind(1, g.ny + 1),
                           ks = first_of_kind(2, g.nz + 1);
  std::set<ClassKey> keys;
  ClassKey pinned;
  pinned.fill(kPinned);
  keys.insert(pinned);
#pragma omp parallel
  {
    std::set<ClassKey> local;
#pragma omp for schedule(dynamic) collapse(2) nowait
    for (std::size_t kn = 0; kn < ks.size(); ++kn)
      for (std::size_t jn = 0; jn < js.size(); ++jn)
        for (const Index i : is) local.insert(model.class_key(i, js[jn], ks[kn]));
#pragma omp critical
    keys.insert(local.begin(), local.end());
  }
  if (keys.size() > 256)
    throw DeckError("geometry", std::to_string(keys.size()) +
                                    " distinct material combinations at nodes; at most 256 are supported");
  model.classes.assign(keys.begin(), keys.end());

  for (std::size_t s = 0; s < deck.sources.size(); ++s) {
    const Source& src = deck.sources[s];
    ResolvedSource r;
    r.name = src.name;
    r.component = static_cast<Component>(src.polarisation);
    r.node = model.nearest_node(src.position);
    const ClassKey key = model.class_key(r.node[0], r.node[1], r.node[2]);
    const auto m = key[src.polarisation];
    if (m == kPinned)
      throw DeckError("source[" + std::to_string(s) + "].position",
                      "the source's E component lies inside a PEC object or on the PEC boundary");
    // The dispersion pass advances a node's pole state from its E right after the sweep, before
    // the sources are added: a source there would go unseen by the poles.
    if (model.materials[m].dispersive())
      throw DeckError("source[" + std::to_string(s) + "].position",
                      "the source's E component lies in the dispersive material " +
                          ("\"" + model.materials[m].name + "\"") +
                          "; sources must sit in a material without poles (e.g. a small box of its eps_r around it)");
    r.coefficient = source_coefficient(src.amplitude, src.polarisation, model.materials[m], model.dt, model.cell);
    if (with_samples) r.samples.resize(model.steps);
    for (Index n = 0; n < Index(r.samples.size()); ++n)
      r.samples[n] = waveform_value(src.waveform, src.frequency, (n + 0.5) * model.dt);
    model.sources.push_back(std::move(r));
  }
  for (const auto& p : deck.probes)
    model.probes.push_back({p.name, p.position, model.nearest_node(p.position), p.components});
  resolve_plane_waves(model, with_samples);
  return model;
}

namespace {

template <typename Real>
CellCoefficients<Real> class_coefficients(const Model& model, const ClassKey& key) {
  CellCoefficients<Real> m{};
  for (Component c : kAllComponents) {
    const int a = axis_of(c);
    const auto id = key[static_cast<int>(c)];
    if (id == kPinned) continue;  // all zero: the component stays zero
    const UpdateCoefficients k = update_coefficients(model.materials[id], model.dt);
    const double da = model.cell[(a + 1) % 3], db = model.cell[(a + 2) % 3];
    if (is_electric(c)) {
      m.e_decay[a] = static_cast<Real>(k.e_decay);
      m.e_curl_a[a] = static_cast<Real>(k.e_curl / da);
      m.e_curl_b[a] = static_cast<Real>(k.e_curl / db);
    } else {
      m.h_decay[a] = 1;
      m.h_curl_a[a] = static_cast<Real>(k.h_curl / da);
      m.h_curl_b[a] = static_cast<Real>(k.h_curl / db);
    }
  }
  return m;
}

}  // namespace

static_assert(kMaxPolesPerMaterial == kMaxPoles, "the deck's limit is the engines'");

template <typename Real>
PoleSet<Real> pole_set(const DispersiveUpdate& update) {
  PoleSet<Real> set;
  set.poles = static_cast<int>(update.poles.size());
  for (int p = 0; p < set.poles; ++p) {
    const PoleUpdate& u = update.poles[p];
    set.states[p] = u.states;
    for (int r = 0; r < 2; ++r) {
      set.h[p][r] = static_cast<Real>(u.h[r]), set.u[p][r] = static_cast<Real>(u.u[r]);
      for (int c = 0; c < 2; ++c) set.a[p][r][c] = static_cast<Real>(u.a[r][c]);
    }
  }
  return set;
}
template PoleSet<float> pole_set<float>(const DispersiveUpdate&);
template PoleSet<double> pole_set<double>(const DispersiveUpdate&);

// The dispersive materials' pole sets, which set each class's E components take, and the rows of
// the layout's nodes whose class has a dispersive E component (kernels/dispersion.hpp).
template <typename Real>
DispersionSetup<Real> dispersion_setup(const Model& model, const FieldLayout& L,
                                       const std::vector<std::uint8_t>& node_class) {
  DispersionSetup<Real> d;
  std::vector<int> set_of_material(model.materials.size(), -1);
  for (std::size_t id = 0; id < model.materials.size(); ++id) {
    const Material& material = model.materials[id];
    if (!material.dispersive()) continue;
    const PoleSet<Real> set = pole_set<Real>(dispersive_update(material, model.dt));
    int states = 0;
    for (int p = 0; p < set.poles; ++p) states += set.states[p];
    set_of_material[id] = static_cast<int>(d.sets.size());
    d.sets.push_back(set);
    d.states = std::max(d.states, states);
  }
  if (d.sets.empty()) return d;
  std::vector<bool> dispersive_class(model.classes.size(), false);
  d.set_of.assign(3 * model.classes.size(), -1);
  for (std::size_t k = 0; k < model.classes.size(); ++k)
    for (int c = 0; c < 3; ++c)
      if (const auto id = model.classes[k][c]; id != kPinned && set_of_material[id] >= 0) {
        d.set_of[3 * k + c] = static_cast<std::int8_t>(set_of_material[id]);
        dispersive_class[k] = true;
      }
  d.plane_row.assign(L.planes + 1, 0), d.plane_entry.assign(L.planes + 1, 0);
  for (Index kk = 0; kk < L.planes; ++kk) {
    const Index k = kk - L.origin_z;
    d.plane_row[kk] = static_cast<Index>(d.rows.size()), d.plane_entry[kk] = d.entries;
    for (Index j = 0; j < L.nodes_y; ++j) {
      const std::uint8_t* row = node_class.data() + L.offset(0, j, k);
      for (Index i = 0; i < L.nodes_x;) {
        if (!dispersive_class[row[i]]) {
          ++i;
          continue;
        }
        Index end = i;
        while (end < L.nodes_x && dispersive_class[row[end]]) ++end;
        d.rows.push_back({k, j, i, end - i, d.entries});
        d.entries += end - i;
        i = end;
      }
    }
  }
  d.plane_row[L.planes] = static_cast<Index>(d.rows.size()), d.plane_entry[L.planes] = d.entries;
  if (d.rows.empty()) d = DispersionSetup<Real>{};  // no dispersive node in this slab
  return d;
}

template <typename Real>
EngineSetup<Real> make_engine_setup(const Model& model, Index k_first, Index nodes_z, Index ghost, Index probe_slots,
                                    std::optional<PlaneRange> sources) {
  EngineSetup<Real> setup;
  const GridShape g = model.grid;
  setup.layout = FieldLayout::make(g.nx + 1, g.ny + 1, nodes_z, ghost, sizeof(Real));
  const FieldLayout& L = setup.layout;
  for (const auto& key : model.classes) setup.classes.push_back(class_coefficients<Real>(model, key));

  // The stored planes inside the grid: keys for the first node of each x signature in the first
  // row of each y signature in the first plane of each z signature (axis_signature), copies
  // elsewhere. Pads, and ghost planes beyond the grid, keep class 0: all pinned (sorted first).
  setup.material_class.assign(L.elements(), 0);
  std::uint8_t* node_class = setup.material_class.data();
  const Index kg_first = std::max<Index>(k_first - L.origin_z, 0);
  const Index kg_last = std::min<Index>(k_first + nodes_z + L.origin_z, g.nz + 1);
  const std::vector<Index> alike_i = first_alike(model, 0, 0, g.nx + 1), alike_j = first_alike(model, 1, 0, g.ny + 1);
  const std::vector<Index> alike_k = first_alike(model, 2, kg_first, kg_last);
  const auto plane = [&](Index kg) { return node_class + L.plane_offset(kg - k_first); };
#pragma omp parallel for schedule(dynamic)
  for (Index kg = kg_first; kg < kg_last; ++kg) {
    if (alike_k[kg - kg_first] != kg) continue;
    for (Index j = 0; j <= g.ny; ++j) {
      std::uint8_t* row = node_class + L.offset(0, j, kg - k_first);
      if (alike_j[j] != j) {
        std::memcpy(row, node_class + L.offset(0, alike_j[j], kg - k_first), g.nx + 1);
        continue;
      }
      for (Index i = 0; i <= g.nx; ++i)
        row[i] = alike_i[i] == i ? class_index(model.classes, model.class_key(i, j, kg)) : row[alike_i[i]];
    }
  }
#pragma omp parallel for schedule(static)
  for (Index kg = kg_first; kg < kg_last; ++kg)
    if (const Index first = alike_k[kg - kg_first]; first != kg) std::memcpy(plane(kg), plane(first), L.pitch_z);

  // Probes belong to the subdomain that owns their node plane, sources to every one that
  // computes it.
  const PlaneRange own{k_first, k_first + nodes_z}, source_planes = sources.value_or(own);
  const auto owned = [&](const std::array<Index, 3>& node) { return own.contains(node[2]); };
  const auto local_offset = [&](const std::array<Index, 3>& node) {
    return L.offset(node[0], node[1], node[2] - k_first);
  };
  setup.steps = model.steps;
  std::vector<const ResolvedSource*> mine;
  for (const auto& s : model.sources)
    if (source_planes.contains(s.node[2])) {
      mine.push_back(&s);
      setup.sources.push_back({s.component, local_offset(s.node), s.coefficient});
    }
  setup.source_samples.resize(static_cast<std::size_t>(model.steps) * mine.size());
  for (Index n = 0; n < model.steps; ++n)
    for (std::size_t s = 0; s < mine.size(); ++s)
      setup.source_samples[n * mine.size() + s] = static_cast<Real>(mine[s]->samples[n]);
  for (const auto& p : model.probes)
    if (owned(p.node))
      for (Component c : p.components) setup.probes.push_back({c, local_offset(p.node)});
  setup.probe_slots = probe_slots;
  setup.cpml = make_cpml_setup<Real>(model.deck, model.dt, L, k_first);
  setup.dispersion = dispersion_setup<Real>(model, L, setup.material_class);
  setup.tfsf = make_tfsf_setup<Real>(model.tfsf, model.steps, L, k_first);
  return setup;
}

template EngineSetup<float> make_engine_setup<float>(const Model&, Index, Index, Index, Index,
                                                     std::optional<PlaneRange>);
template EngineSetup<double> make_engine_setup<double>(const Model&, Index, Index, Index, Index,
                                                       std::optional<PlaneRange>);

}  // namespace yeex
