#include "src/solver/tfsf_setup.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "physics/constants.hpp"
#include "physics/material.hpp"
#include "physics/plane_wave.hpp"
#include "src/solver/model.hpp"

namespace yeex {
namespace {

using Node3 = std::array<Index, 3>;

std::string key_of(std::size_t wave) { return "plane_wave[" + std::to_string(wave) + "]"; }

std::string node_text(const Node3& n) {
  return "(" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + ", " + std::to_string(n[2]) + ")";
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// The box's nodes a (lower) and b (upper), as the deck's checks snapped them.
std::array<Node3, 2> box_nodes(const PlaneWave& w, const Vec3& cell) {
  std::array<Node3, 2> box{};
  for (int d = 0; d < 3; ++d) {
    box[0][d] = std::llround(w.lower[d] / cell[d]);
    box[1][d] = std::llround(w.upper[d] / cell[d]);
  }
  return box;
}

// The 1D grid of one plane wave: its spacing and where its lines lie (ResolvedPlaneWave).
// `speed` is the medium's; a node read by a correction lies at most a cell outside the box along
// each axis, `reach` from the box along the direction.
ResolvedPlaneWave line_geometry(const Deck& deck, std::size_t index, double speed) {
  const PlaneWave& w = deck.plane_waves[index];
  ResolvedPlaneWave r;
  r.name = w.name;
  r.speed = speed;
  r.spacing = matched_line_spacing(w.direction, 2 * std::numbers::pi * w.frequency, deck.cell_size, deck.dt(), speed);
  if (!std::isfinite(r.spacing))
    throw DeckError(key_of(index) + ".frequency",
                    std::to_string(w.frequency) +
                        " Hz is beyond what the grid carries along the plane wave's "
                        "direction (fewer than 2 cells per wavelength); refine the cells");
  const auto box = box_nodes(w, deck.cell_size);
  r.lower = box[0], r.upper = box[1];
  double reach = 0, extent = 0;
  for (int d = 0; d < 3; ++d) {
    reach += std::abs(w.direction[d]) * deck.cell_size[d];
    extent += std::abs(w.direction[d]) * static_cast<double>(box[1][d] - box[0][d]) * deck.cell_size[d];
  }
  r.margin = static_cast<std::int64_t>(std::ceil(reach / r.spacing)) + 2;
  r.width = r.margin + static_cast<std::int64_t>(std::ceil((extent + reach) / r.spacing)) + 2;
  return r;
}

// The reads of component X's update (kernels/yee_stencil.hpp): the component read, its node
// relative to X's, and its factor in X's new value (E: + e_curl * curl H; H: - h_curl * curl E).
struct Read {
  Component component;
  Node3 shift;
  double factor;
};
std::array<Read, 4> reads_of(Component x, const Vec3& cell, double e_curl, double h_curl) {
  const int a = axis_of(x), a1 = (a + 1) % 3, a2 = (a + 2) % 3;
  Node3 along1{}, along2{};
  if (is_electric(x)) {
    // E_a += e_curl [ (H_{a+2} - H_{a+2}(-1 along a+1)) / d_{a+1} - (H_{a+1} - H_{a+1}(-1 along a+2)) / d_{a+2} ]
    along1[a1] = -1, along2[a2] = -1;
    const auto h2 = static_cast<Component>(3 + a2), h1 = static_cast<Component>(3 + a1);
    return {{{h2, {}, e_curl / cell[a1]},
             {h2, along1, -e_curl / cell[a1]},
             {h1, {}, -e_curl / cell[a2]},
             {h1, along2, e_curl / cell[a2]}}};
  }
  // H_a -= h_curl [ (E_{a+2}(+1 along a+1) - E_{a+2}) / d_{a+1} - (E_{a+1}(+1 along a+2) - E_{a+1}) / d_{a+2} ]
  along1[a1] = 1, along2[a2] = 1;
  const auto e2 = static_cast<Component>(a2), e1 = static_cast<Component>(a1);
  return {{{e2, along1, -h_curl / cell[a1]},
           {e2, {}, h_curl / cell[a1]},
           {e1, along2, h_curl / cell[a2]},
           {e1, {}, -h_curl / cell[a2]}}};
}

struct KeyedTerm {
  Node3 node;
  Component component;
  TfsfModel::Term term;
};

// The terms of plane wave `index` (whose 1D grid is `r`), appended to `out` in node order.
class WaveTerms {
 public:
  WaveTerms(const Model& model, std::size_t index, ResolvedPlaneWave& r)
      : model_(model), wave_(model.deck.plane_waves[index]), index_(index), r_(r) {
    ee_ = wave_.polarisation;
    hh_ = cross(wave_.direction, wave_.polarisation);
    for (int d = 0; d < 3; ++d) r0_[d] = (wave_.direction[d] >= 0 ? r.lower[d] : r.upper[d]) * model.cell[d];
  }

  void add(std::vector<KeyedTerm>& out) {
    const Node3 a = r_.lower, b = r_.upper;
    for (Index k = a[2] - 1; k <= b[2] + 1; ++k)
      for (Index j = a[1] - 1; j <= b[1] + 1; ++j) {
        const bool inner_row = k > a[2] && k < b[2] && j > a[1] && j < b[1];
        for (Index i = a[0] - 1; i <= b[0] + 1; ++i) {
          if (inner_row && i == a[0] + 1 && b[0] - 1 > i) i = b[0];  // skip the box's inside
          for (Component x : kAllComponents) add_node({i, j, k}, x, out);
        }
      }
  }

 private:
  static Vec3 position(const Node3& n, Component c) {
    const auto s = stagger(c);
    return {n[0] + s[0], n[1] + s[1], n[2] + s[2]};
  }
  bool total(const Vec3& p) const {
    for (int d = 0; d < 3; ++d)
      if (p[d] < r_.lower[d] || p[d] > r_.upper[d]) return false;
    return true;
  }
  const ClassKey& key(const Node3& n) {
    const Index id = (n[2] * (model_.grid.ny + 3) + n[1]) * (model_.grid.nx + 3) + n[0];
    auto it = keys_.find(id);
    if (it == keys_.end()) it = keys_.emplace(id, model_.class_key(n[0], n[1], n[2])).first;
    return it->second;
  }
  // The material of component c at node n, which must be the box surface's one.
  void check_material(const Node3& n, Component c) {
    const auto m = key(n)[static_cast<int>(c)];
    if (background_ < 0 && m != kPinned) {
      const Material& material = model_.materials[m];
      if (material.pec || material.sigma != 0 || material.dispersive()) {
        const std::string kind = material.pec ? "a PEC"
                                 : material.dispersive()
                                     ? "a dispersive material (poles)"
                                     : "a lossy material (sigma = " + std::to_string(material.sigma) + " S/m)";
        throw DeckError(key_of(index_), "the total-field box's surface lies in '" + material.name + "', " + kind +
                                            "; the incident wave needs a lossless, non-dispersive background there");
      }
      background_ = m;
      e_curl_ = update_coefficients(material, model_.dt).e_curl;
      h_curl_ = update_coefficients(material, model_.dt).h_curl;
      r_.material = material.name;
      r_.speed = kSpeedOfLight / std::sqrt(material.eps_r * material.mu_r);
    }
    if (m == background_) return;
    const std::string here = m == kPinned ? "a PEC object or boundary" : "'" + model_.materials[m].name + "'";
    throw DeckError(key_of(index_),
                    "the total-field box's surface must lie in one material: " + std::string(component_name(c)) +
                        " at node " + node_text(n) + " is in " + here + ", other surface nodes in '" +
                        model_.materials[background_].name + "'; move the box (lower, upper) clear of the objects");
  }

  void add_node(const Node3& n, Component x, std::vector<KeyedTerm>& out) {
    const bool x_total = total(position(n, x));
    bool checked = false;
    for (const Read& read : reads_of(x, model_.cell, 1.0, 1.0)) {
      const Node3 at{n[0] + read.shift[0], n[1] + read.shift[1], n[2] + read.shift[2]};
      const Vec3 p = position(at, read.component);
      if (total(p) == x_total) continue;
      const double share = (is_electric(read.component) ? ee_ : hh_)[axis_of(read.component)];
      if (share == 0) continue;
      if (!checked) check_material(n, x), checked = true;
      check_material(at, read.component);
      // reads_of with unit curls gave the sign and 1/d; the material's curl scales it.
      const double factor = read.factor * (is_electric(x) ? e_curl_ : h_curl_);
      double s = 0;
      for (int d = 0; d < 3; ++d) s += wave_.direction[d] * (p[d] * model_.cell[d] - r0_[d]);
      const double u = s / r_.spacing + static_cast<double>(r_.margin) - (is_electric(read.component) ? 0.0 : 0.5);
      const double line = std::floor(u);
      TfsfModel::Term term;
      term.line = r_.base + static_cast<std::int64_t>(line);
      term.weight = u - line;
      term.coefficient = factor * (x_total ? 1.0 : -1.0) * share;
      out.push_back({n, x, term});
    }
  }

  const Model& model_;
  const PlaneWave& wave_;
  std::size_t index_;
  ResolvedPlaneWave& r_;
  Vec3 ee_{}, hh_{}, r0_{};
  std::unordered_map<Index, ClassKey> keys_;
  int background_ = -1;
  double e_curl_ = 0, h_curl_ = 0;
};

}  // namespace

void resolve_plane_waves(Model& model, bool with_samples) {
  TfsfModel& t = model.tfsf;
  t = {};
  const Deck& deck = model.deck;
  if (deck.plane_waves.empty()) return;
  std::vector<KeyedTerm> keyed;
  for (std::size_t p = 0; p < deck.plane_waves.size(); ++p) {
    // The speed is the surface material's, known once its nodes are looked at; the lines' layout
    // depends on it through the spacing, so a second pass follows a first that found it.
    ResolvedPlaneWave probe = line_geometry(deck, p, kSpeedOfLight);
    std::vector<KeyedTerm> scratch;
    WaveTerms(model, p, probe).add(scratch);
    ResolvedPlaneWave r = line_geometry(deck, p, probe.speed);
    r.material = probe.material;
    r.base = t.width;
    if (r.material.empty()) r.material = "free_space";
    const std::size_t before = keyed.size();
    WaveTerms(model, p, r).add(keyed);
    for (std::size_t i = before; i < keyed.size(); ++i)
      if (keyed[i].term.line < r.base || keyed[i].term.line + 1 >= r.base + r.width)
        throw std::logic_error("plane wave " + r.name + ": a correction reads beyond its 1D grid");
    t.width += r.width;
    t.waves.push_back(r);
  }
  // One node per component and node, its terms in plane-wave order, nodes in (k, j, i) order.
  std::stable_sort(keyed.begin(), keyed.end(), [](const KeyedTerm& a, const KeyedTerm& b) {
    return std::tie(a.node[2], a.node[1], a.node[0], a.component) <
           std::tie(b.node[2], b.node[1], b.node[0], b.component);
  });
  for (const KeyedTerm& k : keyed) {
    if (t.nodes.empty() || t.nodes.back().node != k.node || t.nodes.back().component != k.component)
      t.nodes.push_back({k.component, k.node, static_cast<std::int64_t>(t.terms.size()), 0});
    ++t.nodes.back().count;
    t.terms.push_back(k.term);
  }
  if (!with_samples) return;
  t.incident.assign(static_cast<std::size_t>(model.steps) * 2 * t.width, 0.0);
  for (std::size_t p = 0; p < deck.plane_waves.size(); ++p) {
    const PlaneWave& w = deck.plane_waves[p];
    const ResolvedPlaneWave& r = t.waves[p];
    const Material* m = nullptr;
    for (const Material& material : model.materials)
      if (material.name == r.material) m = &material;
    IncidentLine line;
    line.spacing = r.spacing;
    line.dt = model.dt;
    line.eps = m->eps_r * kEps0;
    line.mu = m->mu_r * kMu0;
    line.width = r.width;
    // E at the box corner r0 is amplitude * W(t): the source, margin lines before it, leads by
    // the time the wave takes over them.
    const double lead = static_cast<double>(r.margin) * r.spacing / r.speed;
    std::vector<double> drive(static_cast<std::size_t>(model.steps));
    for (Index n = 0; n < model.steps; ++n)
      drive[n] = w.amplitude * waveform_value(w.waveform, w.frequency, n * model.dt + lead);
    const std::vector<double> table = run_incident_line(line, drive);
    for (Index n = 0; n < model.steps; ++n)
      for (int field = 0; field < 2; ++field)
        std::copy_n(table.begin() + (2 * n + field) * r.width, r.width,
                    t.incident.begin() + (2 * n + field) * t.width + r.base);
  }
}

template <typename Real>
TfsfSetup<Real> make_tfsf_setup(const TfsfModel& tfsf, Index steps, const FieldLayout& layout, Index k_first) {
  TfsfSetup<Real> s;
  if (tfsf.empty()) return s;
  s.width = tfsf.width;
  s.steps = steps;
  const Index k_lo = k_first - layout.origin_z, k_hi = k_first + layout.nodes_z + layout.origin_z;
  for (const TfsfModel::Node& node : tfsf.nodes) {
    if (node.node[2] < k_lo || node.node[2] >= k_hi) continue;
    TfsfNode n;
    n.offset = layout.offset(node.node[0], node.node[1], node.node[2] - k_first);
    n.first = static_cast<std::int32_t>(s.terms.size());
    n.component = static_cast<std::uint8_t>(node.component);
    n.count = static_cast<std::uint8_t>(node.count);
    for (int i = 0; i < node.count; ++i) {
      const TfsfModel::Term& term = tfsf.terms[node.first + i];
      s.terms.push_back(
          {static_cast<std::int32_t>(term.line), static_cast<Real>(term.weight), static_cast<Real>(term.coefficient)});
    }
    (is_electric(node.component) ? s.e_nodes : s.h_nodes).push_back(n);
  }
  s.incident.resize(tfsf.incident.size());
  std::transform(tfsf.incident.begin(), tfsf.incident.end(), s.incident.begin(),
                 [](double v) { return static_cast<Real>(v); });
  return s;
}

template TfsfSetup<float> make_tfsf_setup<float>(const TfsfModel&, Index, const FieldLayout&, Index);
template TfsfSetup<double> make_tfsf_setup<double>(const TfsfModel&, Index, const FieldLayout&, Index);

TfsfBytes tfsf_bytes(const Deck& deck, std::size_t real) {
  TfsfBytes b;
  if (deck.plane_waves.empty()) return b;
  // The slowest material in the deck bounds the spacing from below (it is at least v dt) and so
  // the lines from above.
  double slowest = 1;
  for (const Material& m : deck.materials) slowest = std::max(slowest, m.eps_r * m.mu_r);
  const double spacing = kSpeedOfLight / std::sqrt(slowest) * deck.dt();
  std::size_t width = 0, nodes = 0;
  for (const PlaneWave& w : deck.plane_waves) {
    const auto box = box_nodes(w, deck.cell_size);
    double reach = 0, extent = 0;
    for (int d = 0; d < 3; ++d) {
      reach += std::abs(w.direction[d]) * deck.cell_size[d];
      extent += std::abs(w.direction[d]) * static_cast<double>(box[1][d] - box[0][d]) * deck.cell_size[d];
    }
    width += static_cast<std::size_t>(std::ceil((extent + 2 * reach) / spacing)) + 6;
    // Corrected nodes: each face's area, 2 E and 2 H components a node, on both sides.
    std::array<std::size_t, 3> side{};
    for (int d = 0; d < 3; ++d) side[d] = static_cast<std::size_t>(box[1][d] - box[0][d] + 3);
    nodes += 2 * (side[0] * side[1] + side[1] * side[2] + side[0] * side[2]) * 4;
  }
  const std::size_t steps = static_cast<std::size_t>(deck.step_count());
  const std::size_t per_node = sizeof(TfsfNode) + 2 * (sizeof(std::int32_t) + 2 * real);
  b.engine = steps * 2 * width * real + nodes * per_node;
  b.host = steps * 2 * width * sizeof(double) + nodes * (sizeof(TfsfModel::Node) + 2 * sizeof(TfsfModel::Term));
  return b;
}

}  // namespace yeex
