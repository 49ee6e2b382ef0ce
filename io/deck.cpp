// Parsing and validation of the TOML input deck (the format is documented in the README, "The
// input deck").
//
// Every table is read through a TableReader that is told which keys its table may hold, and
// refuses any other key before anything else is read: a misspelt key is then reported as itself
// ("source[1].frequncy: unknown key (did you mean 'frequency'?)") and not as the "missing
// frequency" it causes. Tables are read in the order of the format (grid, time, boundary,
// materials, geometry, sources, probes, snapshots, output) and the first problem is thrown.
#include "io/deck.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <numeric>
#include <ranges>
#include <sstream>
#include <string_view>

#include <toml++/toml.h>

namespace yeex {
namespace {

constexpr Index kMaxCells = Index{1} << 40;  // ~1.1e12 cells: far beyond any one node's memory
constexpr Index kMaxSteps = 1'000'000'000;

constexpr std::array<std::string_view, 3> kAxisNames = {"x", "y", "z"};
constexpr std::array<std::string_view, 6> kFaceNames = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
constexpr std::array<std::string_view, 4> kWaveformNames = {"gaussian", "gaussian_derivative", "ricker",
                                                            "ramped_sine"};
constexpr std::array<std::string_view, 1> kBoundaryNames = {"pec"};  // indexed by BoundaryKind
constexpr std::array<std::string_view, 2> kBuiltinMaterials = {"free_space", "pec"};

// ---- small text helpers -----------------------------------------------------------------------

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

template <class Range>
std::string join(const Range& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

std::string indexed(std::string_view path, std::size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

// Levenshtein distance, for the "did you mean" hint on a misspelt key.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: return "a date/time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

[[noreturn]] void wrong_type(const std::string& path, std::string_view expected, const toml::node& node) {
  throw DeckError(path, "expected " + std::string(expected) + ", got " + std::string(type_name(node)));
}

// ---- conversion of one TOML value to the C++ type the deck stores -----------------------------

template <class T>
T convert(const toml::node& node, const std::string& path);

template <>
std::string convert(const toml::node& node, const std::string& path) {
  if (const auto* text = node.as_string()) return text->get();
  wrong_type(path, "a string", node);
}

template <>
Index convert(const toml::node& node, const std::string& path) {
  if (const auto* integer = node.as_integer()) return integer->get();
  wrong_type(path, "an integer", node);
}

// Integers are accepted where a real number is expected (eps_r = 4); inf and nan are not.
template <>
double convert(const toml::node& node, const std::string& path) {
  double value = 0.0;
  if (const auto* integer = node.as_integer())
    value = static_cast<double>(integer->get());
  else if (const auto* real = node.as_floating_point())
    value = real->get();
  else
    wrong_type(path, "a number", node);
  if (!std::isfinite(value)) throw DeckError(path, "must be a finite number, got " + format_number(value));
  return value;
}

template <class Element>
std::vector<Element> convert_array(const toml::node& node, const std::string& path,
                                   std::string_view expected) {
  const auto* array = node.as_array();
  if (!array) wrong_type(path, expected, node);
  std::vector<Element> elements;
  for (std::size_t i = 0; i < array->size(); ++i)
    elements.push_back(convert<Element>(*array->get(i), indexed(path, i)));
  return elements;
}

template <class Element>
std::array<Element, 3> convert_triple(const toml::node& node, const std::string& path,
                                      std::string_view expected) {
  const auto elements = convert_array<Element>(node, path, expected);
  if (elements.size() != 3)
    throw DeckError(path, "expected exactly 3 entries (x, y, z), got " + std::to_string(elements.size()));
  return {elements[0], elements[1], elements[2]};
}

template <>
std::vector<std::string> convert(const toml::node& node, const std::string& path) {
  return convert_array<std::string>(node, path, "an array of strings");
}

template <>
Vec3 convert(const toml::node& node, const std::string& path) {
  return convert_triple<double>(node, path, "an array of 3 numbers");
}

template <>
std::array<Index, 3> convert(const toml::node& node, const std::string& path) {
  return convert_triple<Index>(node, path, "an array of 3 integers");
}

// ---- one table of the deck --------------------------------------------------------------------

class TableReader {
 public:
  // Throws on the first key of `table` that is not in `known`.
  TableReader(const toml::table& table, std::string path, std::initializer_list<std::string_view> known)
      : table_(&table), path_(std::move(path)), known_(known) {
    for (const auto& [key, node] : table)
      if (!is_known(key.str())) throw DeckError(key_path(key.str()), unknown_key_problem(key.str()));
  }

  std::string key_path(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  bool has(std::string_view key) const { return table_->contains(key); }

  template <class T>
  std::optional<T> get(std::string_view key) const {
    assert(is_known(key));
    const toml::node* node = table_->get(key);
    if (!node) return std::nullopt;
    return convert<T>(*node, key_path(key));
  }
  template <class T>
  T require(std::string_view key) const {
    auto value = get<T>(key);
    if (!value) throw DeckError(key_path(key), "missing required key");
    return *std::move(value);
  }
  template <class T>
  T get_or(std::string_view key, T fallback) const {
    return get<T>(key).value_or(std::move(fallback));
  }

  // A sub-table ([grid], or an inline table such as plane = { ... }); nullopt when absent.
  std::optional<TableReader> table(std::string_view key,
                                   std::initializer_list<std::string_view> known) const {
    assert(is_known(key));
    const toml::node* node = table_->get(key);
    if (!node) return std::nullopt;
    if (!node->is_table()) wrong_type(key_path(key), "a table", *node);
    return TableReader(*node->as_table(), key_path(key), known);
  }

  // The entries of an array of tables ([[key]] ...), read as key[0], key[1], ...
  std::vector<TableReader> array_of_tables(std::string_view key,
                                           std::initializer_list<std::string_view> known) const {
    assert(is_known(key));
    const toml::node* node = table_->get(key);
    std::vector<TableReader> entries;
    if (!node) return entries;
    const std::string expected = "an array of tables ([[" + std::string(key) + "]] entries)";
    const auto* array = node->as_array();
    if (!array) wrong_type(key_path(key), expected, *node);
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& entry = *array->get(i);
      if (!entry.is_table()) wrong_type(indexed(key_path(key), i), expected, entry);
      entries.emplace_back(*entry.as_table(), indexed(key_path(key), i), known);
    }
    return entries;
  }

 private:
  bool is_known(std::string_view key) const {
    return std::find(known_.begin(), known_.end(), key) != known_.end();
  }

  std::string unknown_key_problem(std::string_view key) const {
    const auto closest =
        std::min_element(known_.begin(), known_.end(), [&](std::string_view a, std::string_view b) {
          return edit_distance(key, a) < edit_distance(key, b);
        });
    if (closest != known_.end() && edit_distance(key, *closest) <= 2)
      return "unknown key (did you mean '" + std::string(*closest) + "'?)";
    return "unknown key (expected one of: " + join(known_) + ")";
  }

  const toml::table* table_;
  std::string path_;
  std::vector<std::string_view> known_;
};

// ---- checks shared by several keys ------------------------------------------------------------

double positive(double value, const std::string& path) {
  if (!(value > 0)) throw DeckError(path, "must be > 0, got " + format_number(value));
  return value;
}

double non_negative(double value, const std::string& path) {
  if (!(value >= 0)) throw DeckError(path, "must be >= 0, got " + format_number(value));
  return value;
}

// A required string that must be one of `names`; returns its index.
template <std::size_t N>
int required_choice(const TableReader& table, std::string_view key,
                    const std::array<std::string_view, N>& names) {
  const auto value = table.require<std::string>(key);
  const auto it = std::find(names.begin(), names.end(), value);
  if (it == names.end())
    throw DeckError(table.key_path(key), "'" + value + "' is not one of: " + join(names));
  return static_cast<int>(it - names.begin());
}

// Names appear in output files and reports: short, plain and unique within their kind.
template <class Item>
void check_name(const std::string& name, const std::string& path, const std::vector<Item>& earlier,
                std::string_view kind) {
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (!plain)
    throw DeckError(path, "'" + name + "' is not a valid name: use letters, digits, '_' and '-' only");
  const auto same =
      std::find_if(earlier.begin(), earlier.end(), [&](const Item& item) { return item.name == name; });
  if (same != earlier.end())
    throw DeckError(path, "duplicate " + std::string(kind) + " name '" + name + "' (already used by " +
                              indexed(kind, static_cast<std::size_t>(same - earlier.begin())) + ")");
}

Vec3 grid_extent(const Deck& deck) {
  const auto cells = deck.grid.as_array();
  return {cells[0] * deck.cell_size[0], cells[1] * deck.cell_size[1], cells[2] * deck.cell_size[2]};
}

// Positions on the outer faces count as inside; the tolerance absorbs n*d rounding.
bool inside_extent(double position, double extent) {
  const double tolerance = 1e-9 * extent;
  return position >= -tolerance && position <= extent + tolerance;
}

void check_inside_axis(double position, int axis, const Vec3& extent, const std::string& path) {
  if (!inside_extent(position, extent[axis]))
    throw DeckError(path, std::string(kAxisNames[axis]) + " = " + format_number(position) +
                              " m is outside the grid, which spans [0, " + format_number(extent[axis]) +
                              "] m along " + std::string(kAxisNames[axis]));
}

void check_inside_grid(const Vec3& position, const Vec3& extent, const std::string& path) {
  for (int axis = 0; axis < 3; ++axis) check_inside_axis(position[axis], axis, extent, path);
}

// A dipole is the E component of its polarisation at the nearest node. On an outer face that
// component is tangential and pinned to zero by the PEC wall (across the polarisation axis), or it
// lies half a cell outside the grid (at the upper end along it): either way the source would be dead.
void check_source_node(const Source& source, const Deck& deck, const std::string& path) {
  const auto cells = deck.grid.as_array();
  const std::string component(component_name(static_cast<Component>(source.polarisation)));
  for (int axis = 0; axis < 3; ++axis) {
    const Index node = std::llround(source.position[axis] / deck.cell_size[axis]);
    const bool along = axis == source.polarisation;
    const bool on_lower_face = !along && node <= 0;
    const bool on_upper_face = node >= cells[axis];
    if (!on_lower_face && !on_upper_face) continue;
    const std::string_view face = kFaceNames[2 * axis + (on_upper_face ? 1 : 0)];
    throw DeckError(
        path,
        std::string(kAxisNames[axis]) + " = " + format_number(source.position[axis]) + " m snaps to node " +
            std::to_string(node) + " on the " + std::string(face) + " boundary face, where " + component +
            (along ? " would lie outside the grid" : " is tangential and pinned to zero by the PEC wall") +
            "; move the source at least half a cell inside");
  }
}

std::vector<Component> parse_components(const TableReader& table) {
  const auto names = table.get<std::vector<std::string>>("components");
  if (!names) return {kAllComponents.begin(), kAllComponents.end()};
  const std::string path = table.key_path("components");
  if (names->empty()) throw DeckError(path, "list at least one component, or leave the key out for all six");
  std::vector<Component> components;
  for (std::size_t i = 0; i < names->size(); ++i) {
    const auto component = parse_component((*names)[i]);
    if (!component)
      throw DeckError(indexed(path, i), "unknown component '" + (*names)[i] + "' (expected one of: " +
                                            join(kAllComponents | std::views::transform(component_name)) +
                                            ")");
    if (std::find(components.begin(), components.end(), *component) != components.end())
      throw DeckError(indexed(path, i), "component '" + (*names)[i] + "' is listed twice");
    components.push_back(*component);
  }
  return components;
}

// Time step at the 3D CFL limit: 1 / (c sqrt(1/dx^2 + 1/dy^2 + 1/dz^2)).
double cfl_time_step(const Vec3& cell) {
  const double inverse_squares = 1 / (cell[0] * cell[0]) + 1 / (cell[1] * cell[1]) + 1 / (cell[2] * cell[2]);
  return 1 / (kSpeedOfLight * std::sqrt(inverse_squares));
}

// ---- the tables of the deck, in the order they are read ---------------------------------------

void parse_grid(const TableReader& root, Deck& deck) {
  const auto grid = root.table("grid", {"cells", "cell_size"});
  if (!grid) throw DeckError("grid", "missing required table [grid] (cells and cell_size)");

  const auto cells = grid->require<std::array<Index, 3>>("cells");
  const std::string cells_path = grid->key_path("cells");
  for (int axis = 0; axis < 3; ++axis)
    if (cells[axis] < 1)
      throw DeckError(indexed(cells_path, axis), "must be >= 1, got " + std::to_string(cells[axis]));
  const double total =
      static_cast<double>(cells[0]) * static_cast<double>(cells[1]) * static_cast<double>(cells[2]);
  if (total > static_cast<double>(kMaxCells))
    throw DeckError(cells_path, std::to_string(cells[0]) + " x " + std::to_string(cells[1]) + " x " +
                                    std::to_string(cells[2]) + " = " + format_number(total) +
                                    " cells is more than the limit of 2^40 (" +
                                    format_number(static_cast<double>(kMaxCells)) + ") cells");
  deck.grid = {cells[0], cells[1], cells[2]};

  deck.cell_size = grid->require<Vec3>("cell_size");
  for (int axis = 0; axis < 3; ++axis)
    positive(deck.cell_size[axis], indexed(grid->key_path("cell_size"), axis));
}

void parse_time(const TableReader& root, Deck& deck) {
  const auto time = root.table("time", {"steps", "duration", "courant"});
  if (!time) throw DeckError("time", "missing required table [time] (steps or duration)");

  deck.steps = time->get<Index>("steps");
  deck.duration = time->get<double>("duration");
  if (deck.steps && deck.duration) throw DeckError("time", "give time.steps or time.duration, not both");
  if (!deck.steps && !deck.duration)
    throw DeckError("time.steps",
                    "missing required key: give time.steps (a step count) or time.duration (seconds)");
  if (deck.steps && (*deck.steps < 1 || *deck.steps > kMaxSteps))
    throw DeckError(time->key_path("steps"), "must be in [1, 1e9], got " + std::to_string(*deck.steps));
  if (deck.duration) positive(*deck.duration, time->key_path("duration"));

  deck.courant = time->get_or("courant", 0.99);
  const std::string courant_path = time->key_path("courant");
  if (deck.courant > 1)
    throw DeckError(courant_path,
                    format_number(deck.courant) + " would give dt = " + format_number(deck.dt()) +
                        " s, above the 3D CFL limit dt_cfl = 1/(c*sqrt(1/dx^2+1/dy^2+1/dz^2)) = " +
                        format_number(cfl_time_step(deck.cell_size)) +
                        " s; the Yee scheme is unstable above the CFL limit, so courant must be in (0, 1]");
  if (!(deck.courant > 0))
    throw DeckError(courant_path, "must be in (0, 1], got " + format_number(deck.courant));

  if (deck.duration) {
    const double steps = std::ceil(*deck.duration / deck.dt());
    if (steps > static_cast<double>(kMaxSteps))
      throw DeckError(time->key_path("duration"),
                      format_number(*deck.duration) + " s at dt = " + format_number(deck.dt()) + " s is " +
                          format_number(steps) + " steps, more than the limit of 1e9");
  }
}

BoundaryKind parse_boundary_kind(const TableReader& boundary, std::string_view key) {
  const auto kind = boundary.require<std::string>(key);
  if (kind == "pec") return BoundaryKind::pec;
  if (kind == "cpml")
    throw DeckError(boundary.key_path(key),
                    "cpml is not implemented yet (coming with the physics work); use pec");
  throw DeckError(boundary.key_path(key), "unknown boundary kind '" + kind + "' (expected pec)");
}

// `all` sets every face; a face named on its own overrides it.
void parse_boundary(const TableReader& root, Deck& deck) {
  deck.boundary.fill(BoundaryKind::pec);
  const auto boundary = root.table("boundary", {"all", "x_min", "x_max", "y_min", "y_max", "z_min", "z_max"});
  if (!boundary) return;
  if (boundary->has("all")) deck.boundary.fill(parse_boundary_kind(*boundary, "all"));
  for (std::size_t face = 0; face < kFaceNames.size(); ++face)
    if (boundary->has(kFaceNames[face]))
      deck.boundary[face] = parse_boundary_kind(*boundary, kFaceNames[face]);
}

void parse_materials(const TableReader& root, Deck& deck) {
  for (const TableReader& entry : root.array_of_tables("material", {"name", "eps_r", "sigma", "mu_r"})) {
    Material material;
    material.name = entry.require<std::string>("name");
    const std::string name_path = entry.key_path("name");
    if (std::find(kBuiltinMaterials.begin(), kBuiltinMaterials.end(), material.name) !=
        kBuiltinMaterials.end())
      throw DeckError(name_path, "'" + material.name + "' is a built-in material (" +
                                     join(kBuiltinMaterials) + "); use it directly or choose another name");
    check_name(material.name, name_path, deck.materials, "material");
    material.eps_r = positive(entry.get_or("eps_r", 1.0), entry.key_path("eps_r"));
    material.sigma = non_negative(entry.get_or("sigma", 0.0), entry.key_path("sigma"));
    material.mu_r = positive(entry.get_or("mu_r", 1.0), entry.key_path("mu_r"));
    deck.materials.push_back(material);
  }
}

ShapeKind parse_shape(const TableReader& entry) {
  const auto shape = entry.get_or<std::string>("shape", "box");
  if (shape == "box") return ShapeKind::box;
  if (shape == "sphere" || shape == "cylinder")
    throw DeckError(entry.key_path("shape"), "'" + shape + "' is not supported yet (only box for now)");
  throw DeckError(entry.key_path("shape"), "unknown shape '" + shape + "' (expected box)");
}

void parse_geometry(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  for (const TableReader& entry : root.array_of_tables("geometry", {"shape", "material", "lower", "upper"})) {
    GeometryObject object;
    object.shape = parse_shape(entry);
    object.material = entry.require<std::string>("material");
    if (!find_material(deck, object.material))
      throw DeckError(
          entry.key_path("material"),
          "unknown material '" + object.material +
              "' (define it in a [[material]] table, or use a built-in: " + join(kBuiltinMaterials) + ")");
    object.lower = entry.require<Vec3>("lower");
    object.upper = entry.require<Vec3>("upper");
    check_inside_grid(object.lower, extent, entry.key_path("lower"));
    check_inside_grid(object.upper, extent, entry.key_path("upper"));
    for (int axis = 0; axis < 3; ++axis)
      if (!(object.lower[axis] < object.upper[axis]))
        throw DeckError(entry.key_path("upper"), "upper must be greater than lower on every axis; along " +
                                                     std::string(kAxisNames[axis]) +
                                                     " lower = " + format_number(object.lower[axis]) +
                                                     ", upper = " + format_number(object.upper[axis]));
    deck.geometry.push_back(object);
  }
}

void parse_sources(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables(
      "source", {"type", "name", "polarisation", "position", "waveform", "amplitude", "frequency"});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const TableReader& entry = entries[i];
    const auto type = entry.get_or<std::string>("type", "hertzian_dipole");
    if (type != "hertzian_dipole")
      throw DeckError(entry.key_path("type"),
                      "unknown source type '" + type + "' (expected hertzian_dipole)");
    Source source;
    source.name = entry.get_or("name", "source" + std::to_string(i));
    check_name(source.name, entry.key_path("name"), deck.sources, "source");
    source.polarisation = required_choice(entry, "polarisation", kAxisNames);
    source.position = entry.require<Vec3>("position");
    check_inside_grid(source.position, extent, entry.key_path("position"));
    check_source_node(source, deck, entry.key_path("position"));
    source.waveform = static_cast<WaveformKind>(required_choice(entry, "waveform", kWaveformNames));
    source.amplitude = entry.get_or("amplitude", 1.0);
    source.frequency = positive(entry.require<double>("frequency"), entry.key_path("frequency"));
    deck.sources.push_back(source);
  }
}

void parse_probes(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables("probe", {"name", "position", "components"});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const TableReader& entry = entries[i];
    Probe probe;
    probe.name = entry.get_or("name", "probe" + std::to_string(i));
    check_name(probe.name, entry.key_path("name"), deck.probes, "probe");
    probe.position = entry.require<Vec3>("position");
    check_inside_grid(probe.position, extent, entry.key_path("position"));
    probe.components = parse_components(entry);
    deck.probes.push_back(probe);
  }
}

void parse_snapshots(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  for (const TableReader& entry :
       root.array_of_tables("snapshot", {"name", "components", "every", "plane"})) {
    Snapshot snapshot;
    snapshot.name = entry.require<std::string>("name");
    check_name(snapshot.name, entry.key_path("name"), deck.snapshots, "snapshot");
    snapshot.components = parse_components(entry);
    snapshot.every = entry.require<Index>("every");
    if (snapshot.every < 1)
      throw DeckError(entry.key_path("every"),
                      "must be >= 1 (steps between snapshots), got " + std::to_string(snapshot.every));
    if (const auto plane = entry.table("plane", {"axis", "position"})) {
      snapshot.plane_axis = required_choice(*plane, "axis", kAxisNames);
      snapshot.plane_position = plane->require<double>("position");
      check_inside_axis(snapshot.plane_position, *snapshot.plane_axis, extent, plane->key_path("position"));
    }
    deck.snapshots.push_back(snapshot);
  }
}

void parse_output(const TableReader& root, Deck& deck) {
  const auto output = root.table("output", {"directory"});
  if (!output) return;
  deck.output_dir = output->get_or("directory", deck.output_dir);
  if (deck.output_dir.empty()) throw DeckError(output->key_path("directory"), "must not be empty");
}

}  // namespace

double Deck::dt() const { return courant * cfl_time_step(cell_size); }

Index Deck::step_count() const {
  if (steps) return *steps;
  return std::max<Index>(1, static_cast<Index>(std::ceil(duration.value_or(0.0) / dt())));
}

nlohmann::json Deck::to_json() const {
  using nlohmann::json;
  const auto component_names = [](const std::vector<Component>& components) {
    json names = json::array();
    for (Component c : components) names.push_back(std::string(component_name(c)));
    return names;
  };

  json time = {{"steps", step_count()}, {"courant", courant}, {"dt", dt()}};
  if (duration) time["duration"] = *duration;
  json boundary_json = json::object();
  for (std::size_t face = 0; face < kFaceNames.size(); ++face)
    boundary_json[std::string(kFaceNames[face])] = kBoundaryNames[static_cast<int>(boundary[face])];

  json out = {
      {"title", title},
      {"grid", {{"cells", grid.as_array()}, {"cell_size", cell_size}}},
      {"time", time},
      {"boundary", boundary_json},
      {"material", json::array()},
      {"geometry", json::array()},
      {"source", json::array()},
      {"probe", json::array()},
      {"snapshot", json::array()},
      {"output", {{"directory", output_dir}}},
  };
  for (const Material& m : materials)
    out["material"].push_back({{"name", m.name}, {"eps_r", m.eps_r}, {"sigma", m.sigma}, {"mu_r", m.mu_r}});
  for (const GeometryObject& g : geometry)
    out["geometry"].push_back(
        {{"shape", "box"}, {"material", g.material}, {"lower", g.lower}, {"upper", g.upper}});
  for (const Source& s : sources)
    out["source"].push_back({{"type", "hertzian_dipole"},
                             {"name", s.name},
                             {"polarisation", kAxisNames[s.polarisation]},
                             {"position", s.position},
                             {"waveform", kWaveformNames[static_cast<int>(s.waveform)]},
                             {"amplitude", s.amplitude},
                             {"frequency", s.frequency}});
  for (const Probe& p : probes)
    out["probe"].push_back(
        {{"name", p.name}, {"position", p.position}, {"components", component_names(p.components)}});
  for (const Snapshot& s : snapshots) {
    json snapshot = {{"name", s.name}, {"components", component_names(s.components)}, {"every", s.every}};
    if (s.plane_axis)
      snapshot["plane"] = {{"axis", kAxisNames[*s.plane_axis]}, {"position", s.plane_position}};
    out["snapshot"].push_back(snapshot);
  }
  return out;
}

Deck parse_deck_string(const std::string& text, const std::string& origin) {
  toml::table document;
  try {
    document = toml::parse(text, origin);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    throw DeckError("", origin + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
                            ": TOML syntax error: " + std::string(error.description()));
  }

  const TableReader root(
      document, "",
      {"title", "grid", "time", "boundary", "material", "geometry", "source", "probe", "snapshot", "output"});
  Deck deck;
  deck.title = root.get_or("title", deck.title);
  parse_grid(root, deck);
  parse_time(root, deck);
  parse_boundary(root, deck);
  parse_materials(root, deck);
  parse_geometry(root, deck);
  parse_sources(root, deck);
  parse_probes(root, deck);
  parse_snapshots(root, deck);
  parse_output(root, deck);
  return deck;
}

Deck parse_deck_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw DeckError("", "cannot read deck file '" + path.string() + "': " +
                            (std::filesystem::exists(path, error) ? "not a regular file" : "no such file"));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || !text) throw DeckError("", "cannot read deck file '" + path.string() + "': read failed");
  return parse_deck_string(text.str(), path.string());
}

Deck default_deck() {
  Deck deck;
  deck.title = "dipole in a PEC box with a dielectric block";
  deck.grid = {64, 64, 64};
  deck.cell_size = {2e-3, 2e-3, 2e-3};
  deck.steps = 400;
  deck.courant = 0.99;
  deck.boundary.fill(BoundaryKind::pec);
  deck.materials = {{.name = "dielectric", .eps_r = 4.0, .sigma = 0.0}};
  deck.geometry = {{.shape = ShapeKind::box,
                    .material = "dielectric",
                    .lower = {0.072, 0.040, 0.040},
                    .upper = {0.104, 0.088, 0.088}}};
  deck.sources = {{.name = "tx",
                   .polarisation = 2,
                   .position = {0.064, 0.064, 0.064},
                   .waveform = WaveformKind::ricker,
                   .amplitude = 1.0,
                   .frequency = 3e9}};
  deck.probes = {
      {.name = "rx_air", .position = {0.040, 0.064, 0.064}, .components = {Component::Ez, Component::Hy}},
      {.name = "rx_block", .position = {0.088, 0.064, 0.064}, .components = {Component::Ez}}};
  deck.snapshots = {{.name = "ez_xy",
                     .components = {Component::Ez},
                     .every = 50,
                     .plane_axis = 2,
                     .plane_position = 0.064}};
  deck.output_dir = "yeex-output";
  return deck;
}

std::optional<Material> find_material(const Deck& deck, const std::string& name) {
  if (name == "free_space") return Material{.name = "free_space"};
  if (name == "pec") return Material{.name = "pec", .pec = true};
  for (const Material& material : deck.materials)
    if (material.name == name) return material;
  return std::nullopt;
}

}  // namespace yeex
