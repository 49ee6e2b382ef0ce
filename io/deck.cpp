// Parsing and validation of the TOML input deck (every key is documented in docs/decks.md).
//
// Every table is read through a TableReader that is told which keys its table may hold, and
// refuses any other key before anything else is read: a misspelt key is then reported as itself
// ("source[1].frequncy: unknown key (did you mean 'frequency'?)") and not as the "missing
// frequency" it causes. A [[geometry]] entry is read with the keys of every shape, then checked
// again against those of its own shape. Tables are read in the order of the format (grid, time,
// boundary, materials, geometry, sources, probes, snapshots, output) and the first problem is
// thrown; the resolution warnings are worked out last, from the complete deck.
//
// Values that are legal one by one can still break the run together, so the deck is also checked
// as the engine will compute it: the time step, the stability in the fastest material in use, and
// every update, CPML and source coefficient in float32 (the default precision), computed by the
// same functions the model uses (physics/: update_coefficients, cpml_coefficients, source_coefficient).
#include "io/deck.hpp"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <ranges>
#include <string_view>

#include <toml++/toml.h>

#include "io/probe_writer.hpp"
#include "physics/constants.hpp"

namespace yeex {
namespace {

constexpr Index kMaxCells = Index{1} << 40;  // ~1.1e12 cells: far beyond any one node's memory

constexpr std::array<std::string_view, 3> kAxisNames = {"x", "y", "z"};
constexpr std::array<std::string_view, 6> kFaceNames = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
constexpr std::array<std::string_view, 4> kWaveformNames = {"gaussian", "gaussian_derivative", "ricker", "ramped_sine"};
constexpr std::array<std::string_view, 2> kBoundaryNames = {"pec", "cpml"};             // indexed by BoundaryKind
constexpr std::array<std::string_view, 3> kShapeNames = {"box", "sphere", "cylinder"};  // indexed by ShapeKind
constexpr std::array<std::string_view, 2> kBuiltinMaterials = {"free_space", "pec"};

// ---- small text helpers -----------------------------------------------------------------------

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// A limit a user may copy into the deck: 9 digits, cut towards zero, so the printed value passes.
std::string format_limit(double value) {
  const double scale = std::pow(10.0, 8 - std::floor(std::log10(std::abs(value))));
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", std::trunc(value * scale) / scale);
  return text;
}

// Two numbers a message compares, with the digits that tell them apart.
std::string format_exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

template <class Range>
std::string join(const Range& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

// User text (a key, a name) quoted in a message is cut to kLongestQuote characters: a key of
// megabytes would otherwise be echoed whole.
constexpr std::size_t kLongestQuote = 60;

std::string shortened(std::string_view text) {
  if (text.size() <= kLongestQuote) return std::string(text);
  std::size_t cut = kLongestQuote;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return std::string(text.substr(0, cut)) + "...";
}

std::string in_quotes(std::string_view text) { return "'" + shortened(text) + "'"; }

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

// Strings become file names, paths and labels handed to C interfaces (the file system, HDF5,
// printf), which end a string at its first NUL.
template <>
std::string convert(const toml::node& node, const std::string& path) {
  const auto* text = node.as_string();
  if (!text) wrong_type(path, "a string", node);
  if (text->get().find('\0') != std::string::npos) throw DeckError(path, "must not contain a NUL character (\\u0000)");
  return text->get();
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
std::vector<Element> convert_array(const toml::node& node, const std::string& path, std::string_view expected) {
  const auto* array = node.as_array();
  if (!array) wrong_type(path, expected, node);
  std::vector<Element> elements;
  for (std::size_t i = 0; i < array->size(); ++i)
    elements.push_back(convert<Element>(*array->get(i), indexed(path, i)));
  return elements;
}

template <class Element>
std::array<Element, 3> convert_triple(const toml::node& node, const std::string& path, std::string_view expected) {
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

  const std::string& path() const { return path_; }
  std::string key_path(std::string_view key) const {
    return path_.empty() ? shortened(key) : path_ + "." + shortened(key);
  }

  // Throws on the first key that is not in `allowed`, for a table whose keys depend on one of its
  // values (a geometry object's shape); `kind` names what the table is, e.g. "a sphere".
  void allow_only(std::initializer_list<std::string_view> allowed, std::string_view kind) const {
    for (const auto& [key, node] : *table_)
      if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end())
        throw DeckError(key_path(key.str()), "unknown key for " + std::string(kind) + " (" + std::string(kind) +
                                                 " takes: " + join(allowed) + ")");
  }
  bool has(std::string_view key) const { return table_->contains(key); }
  bool is_array(std::string_view key) const { return has(key) && table_->get(key)->is_array(); }

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
  std::optional<TableReader> table(std::string_view key, std::initializer_list<std::string_view> known) const {
    assert(is_known(key));
    const toml::node* node = table_->get(key);
    if (!node) return std::nullopt;
    if (!node->is_table()) wrong_type(key_path(key), "a table", *node);
    return TableReader(*node->as_table(), key_path(key), known);
  }

  // The entries of an array of tables ([[key]] ...), read as key[0], key[1], ...
  std::vector<TableReader> array_of_tables(std::string_view key, std::initializer_list<std::string_view> known) const {
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
  bool is_known(std::string_view key) const { return std::find(known_.begin(), known_.end(), key) != known_.end(); }

  // "Did you mean" the first closest known key within 2 edits. Lengths that differ by more than 2
  // are more than 2 edits apart, which spares measuring a huge key against every known one.
  std::string unknown_key_problem(std::string_view key) const {
    std::optional<std::string_view> closest;
    std::size_t fewest_edits = 3;
    for (std::string_view known : known_) {
      if (key.size() > known.size() + 2 || known.size() > key.size() + 2) continue;
      const std::size_t edits = edit_distance(key, known);
      if (edits < fewest_edits) fewest_edits = edits, closest = known;
    }
    if (closest) return "unknown key (did you mean '" + std::string(*closest) + "'?)";
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
int required_choice(const TableReader& table, std::string_view key, const std::array<std::string_view, N>& names) {
  const auto value = table.require<std::string>(key);
  const auto it = std::find(names.begin(), names.end(), value);
  if (it == names.end()) throw DeckError(table.key_path(key), in_quotes(value) + " is not one of: " + join(names));
  return static_cast<int>(it - names.begin());
}

// Names appear in output files and reports: short, plain and unique within their kind.
template <class Item>
void check_name(const std::string& name, const std::string& path, const std::vector<Item>& earlier,
                std::string_view kind) {
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (!plain) throw DeckError(path, in_quotes(name) + " is not a valid name: use letters, digits, '_' and '-' only");
  const auto same = std::find_if(earlier.begin(), earlier.end(), [&](const Item& item) { return item.name == name; });
  if (same != earlier.end())
    throw DeckError(path, "duplicate " + std::string(kind) + " name " + in_quotes(name) + " (already used by " +
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
                              " m is outside the grid, which spans [0, " + format_number(extent[axis]) + "] m along " +
                              std::string(kAxisNames[axis]));
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
    throw DeckError(path,
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
      throw DeckError(indexed(path, i), "unknown component " + in_quotes((*names)[i]) + " (expected one of: " +
                                            join(kAllComponents | std::views::transform(component_name)) + ")");
    if (std::find(components.begin(), components.end(), *component) != components.end())
      throw DeckError(indexed(path, i), "component " + in_quotes((*names)[i]) + " is listed twice");
    components.push_back(*component);
  }
  return components;
}

// Time step at the 3D CFL limit: 1 / (c sqrt(1/dx^2 + 1/dy^2 + 1/dz^2)).
double cfl_time_step(const Vec3& cell) {
  const double inverse_squares = 1 / (cell[0] * cell[0]) + 1 / (cell[1] * cell[1]) + 1 / (cell[2] * cell[2]);
  return 1 / (kSpeedOfLight * std::sqrt(inverse_squares));
}

// Every coefficient is a double divided by or multiplied with dt: a time step of 0 or a subnormal
// one makes them 0 or imprecise, an infinite one makes them nan. `what` says where dt came from.
void check_time_step(double dt, const std::string& path, const std::string& what) {
  if (!std::isnormal(dt))
    throw DeckError(path, what + " = " + format_number(dt) +
                              " s, which is not a usable time step (a finite, positive, normal double)");
}

std::string format_vector(const Vec3& v) { return "[" + join(v | std::views::transform(format_number)) + "]"; }

// ---- the coefficients the engine will compute with ----------------------------------------------

// A material the model is made of, with its [[material]] entry ("material[2]"; empty for a built-in).
struct MaterialInUse {
  Material material;
  std::string path;
};

// The free-space background, then each material an object is made of, once: a material no object
// is made of never reaches the engine.
std::vector<MaterialInUse> materials_in_use(const Deck& deck) {
  std::vector<MaterialInUse> in_use{{*find_material(deck, "free_space"), ""}};
  for (const GeometryObject& object : deck.geometry) {
    const auto made_of = [&](const MaterialInUse& m) { return m.material.name == object.material; };
    if (std::any_of(in_use.begin(), in_use.end(), made_of)) continue;
    const auto entry = std::find_if(deck.materials.begin(), deck.materials.end(),
                                    [&](const Material& m) { return m.name == object.material; });
    in_use.push_back({*find_material(deck, object.material),
                      entry == deck.materials.end() ? "" : indexed("material", entry - deck.materials.begin())});
  }
  return in_use;
}

// dt is set for free space, but waves travel at c / sqrt(eps_r mu_r), faster than c where
// eps_r mu_r < 1, where the Courant number is courant / sqrt(eps_r mu_r). The scheme is stable
// only while that is at most 1 in every material in use.
void check_stability(const Deck& deck) {
  const auto slowdown = [](const Material& m) { return std::sqrt(m.eps_r) * std::sqrt(m.mu_r); };  // c / speed
  const std::vector<MaterialInUse> in_use = materials_in_use(deck);
  const auto fastest = std::min_element(in_use.begin(), in_use.end(), [&](const auto& a, const auto& b) {
    return slowdown(a.material) < slowdown(b.material);
  });
  const double largest_courant = slowdown(fastest->material);  // 1 for free space
  if (deck.courant <= largest_courant) return;
  const Material& m = fastest->material;
  throw DeckError("time.courant",
                  format_number(deck.courant) + " is unstable in " + fastest->path + " (" + in_quotes(m.name) +
                      ", eps_r = " + format_number(m.eps_r) + ", mu_r = " + format_number(m.mu_r) +
                      "), where waves travel at c/sqrt(eps_r*mu_r) = " + format_number(1 / largest_courant) +
                      " c: the effective Courant number there, courant/sqrt(eps_r*mu_r) = " +
                      format_number(deck.courant / largest_courant) +
                      ", is above the CFL limit 1; the largest stable courant for this deck is " +
                      format_limit(largest_courant));
}

// The fields and coefficients are float32 by default (--precision f32), so every coefficient must be
// 0 or a normal float32: a larger one overflows; a smaller one loses its precision or is flushed to
// zero, and a curl coefficient of zero freezes the field, a silent PEC.
constexpr double kFloatMin = std::numeric_limits<float>::min(), kFloatMax = std::numeric_limits<float>::max();

bool is_normal_float(double value) {
  return value == 0 || (std::abs(value) >= kFloatMin && std::abs(value) <= kFloatMax);
}

// The coefficients of every material in use (update_coefficients, per cell size); a failure of free
// space is the cell sizes' (and courant's), any other the material's.
void check_update_coefficients(const Deck& deck) {
  for (const auto& [material, path] : materials_in_use(deck)) {
    const UpdateCoefficients k = update_coefficients(material, deck.dt());
    std::vector<std::pair<std::string, double>> stored = {{"E decay (1 - l)/(1 + l)", k.e_decay}};
    for (int axis = 0; axis < 3; ++axis) {
      const std::string d = "d" + std::string(kAxisNames[axis]);
      stored.emplace_back("E curl coefficient dt/(eps (1 + l) " + d + ")", k.e_curl / deck.cell_size[axis]);
      stored.emplace_back("H curl coefficient dt/(mu " + d + ")", k.h_curl / deck.cell_size[axis]);
    }
    for (const auto& [name, value] : stored) {
      if (is_normal_float(value)) continue;
      const std::string given = path.empty()
                                    ? format_vector(deck.cell_size) +
                                          " m with time.courant = " + format_number(deck.courant) + " give free space"
                                    : in_quotes(material.name) + " (eps_r = " + format_number(material.eps_r) +
                                          ", sigma = " + format_number(material.sigma) +
                                          ", mu_r = " + format_number(material.mu_r) + ") has";
      throw DeckError(path.empty() ? "grid.cell_size" : path,
                      given + " the " + name + " = " + format_number(value) +
                          " (l = sigma dt/(2 eps)), which float32 cannot hold (it must be 0 or within [" +
                          format_number(kFloatMin) + ", " + format_number(kFloatMax) + "])" +
                          (std::abs(value) < kFloatMin ? ": the field there would never change, a silent PEC" : ""));
    }
  }
}

// ---- the tables of the deck, in the order they are read ---------------------------------------

void parse_grid(const TableReader& root, Deck& deck) {
  const auto grid = root.table("grid", {"cells", "cell_size"});
  if (!grid) throw DeckError("grid", "missing required table [grid] (cells and cell_size)");

  const auto cells = grid->require<std::array<Index, 3>>("cells");
  const std::string cells_path = grid->key_path("cells");
  for (int axis = 0; axis < 3; ++axis)
    if (cells[axis] < 1) throw DeckError(indexed(cells_path, axis), "must be >= 1, got " + std::to_string(cells[axis]));
  const double total = static_cast<double>(cells[0]) * static_cast<double>(cells[1]) * static_cast<double>(cells[2]);
  if (total > static_cast<double>(kMaxCells))
    throw DeckError(cells_path, std::to_string(cells[0]) + " x " + std::to_string(cells[1]) + " x " +
                                    std::to_string(cells[2]) + " = " + format_number(total) +
                                    " cells is more than the limit of 2^40 (" +
                                    format_number(static_cast<double>(kMaxCells)) + ") cells");
  deck.grid = {cells[0], cells[1], cells[2]};

  deck.cell_size = grid->require<Vec3>("cell_size");
  for (int axis = 0; axis < 3; ++axis) positive(deck.cell_size[axis], indexed(grid->key_path("cell_size"), axis));
  // 0 once a 1/d^2 overflows (d below ~1e-154 m), inf once all of them underflow.
  check_time_step(cfl_time_step(deck.cell_size), grid->key_path("cell_size"),
                  format_vector(deck.cell_size) + " m give the CFL time step dt_cfl");
}

void parse_time(const TableReader& root, Deck& deck) {
  const auto time = root.table("time", {"steps", "duration", "courant"});
  if (!time) throw DeckError("time", "missing required table [time] (steps or duration)");

  deck.steps = time->get<Index>("steps");
  deck.duration = time->get<double>("duration");
  if (deck.steps && deck.duration) throw DeckError("time", "give time.steps or time.duration, not both");
  if (!deck.steps && !deck.duration)
    throw DeckError("time.steps", "missing required key: give time.steps (a step count) or time.duration (seconds)");
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
  if (!(deck.courant > 0)) throw DeckError(courant_path, "must be in (0, 1], got " + format_number(deck.courant));
  check_time_step(deck.dt(), courant_path, format_number(deck.courant) + " gives dt");

  if (deck.duration) {
    const double steps = std::ceil(*deck.duration / deck.dt());
    if (steps > static_cast<double>(kMaxSteps))
      throw DeckError(time->key_path("duration"), format_number(*deck.duration) +
                                                      " s at dt = " + format_number(deck.dt()) + " s is " +
                                                      format_number(steps) + " steps, more than the limit of 1e9");
  }
}

BoundaryKind parse_boundary_kind(const TableReader& boundary, std::string_view key) {
  const auto kind = boundary.require<std::string>(key);
  const auto it = std::find(kBoundaryNames.begin(), kBoundaryNames.end(), kind);
  if (it == kBoundaryNames.end())
    throw DeckError(boundary.key_path(key),
                    "unknown boundary kind " + in_quotes(kind) + " (expected one of: " + join(kBoundaryNames) + ")");
  return static_cast<BoundaryKind>(it - kBoundaryNames.begin());
}

// The CPML coefficients of one axis' slabs at every depth its nodes use (multiples of half a cell),
// which must be finite. Only two settings can spoil them: a grading so large that the default
// sigma_max = 0.8 (m + 1)/(eta0 d) overflows, and a kappa_max whose square overflows (c's
// kappa^2 alpha is then inf * 0 at the outer edge, where alpha = 0). The others only drive b and c
// to their finite limits.
void check_cpml_coefficients(const Deck& deck, int axis) {
  const double sigma_max = deck.cpml_sigma_max(axis);
  const std::string along = " along " + std::string(kAxisNames[axis]);
  if (!std::isfinite(sigma_max))
    throw DeckError("boundary.cpml.grading", format_number(deck.cpml.grading) +
                                                 " gives the default sigma_max = 0.8 (grading + 1)/(eta0 d) = " +
                                                 format_number(sigma_max) + " S/m" + along);
  const Index n = deck.cpml.cells;
  for (Index half_cells = 0; half_cells <= 2 * n; ++half_cells) {
    const double rho = static_cast<double>(half_cells) / static_cast<double>(2 * n);
    const CpmlCoefficients k = cpml_coefficients(deck.cpml, sigma_max, deck.dt(), rho);
    if (std::isfinite(k.b) && std::isfinite(k.c) && std::isfinite(k.kappa_inverse_minus_one)) continue;
    throw DeckError("boundary.cpml.kappa_max",
                    format_number(deck.cpml.kappa_max) + " makes the CPML coefficients at depth " + format_number(rho) +
                        along + " non-finite: kappa_max^2 must be a finite double (usual values are 1 to 10 or so)");
  }
}

// [boundary.cpml]: ranges of each key, then whether the slabs fit the grid.
void parse_cpml(const TableReader& boundary, Deck& deck) {
  const auto cpml = boundary.table("cpml", {"cells", "grading", "sigma_max", "kappa_max", "alpha_max"});
  if (cpml) {
    CpmlSettings& s = deck.cpml;
    s.cells = cpml->get_or("cells", s.cells);
    if (s.cells < 1) throw DeckError(cpml->key_path("cells"), "must be >= 1, got " + std::to_string(s.cells));
    s.grading = non_negative(cpml->get_or("grading", s.grading), cpml->key_path("grading"));
    // One value for every axis, or one per axis (what run.json holds after the defaults).
    if (cpml->is_array("sigma_max")) {
      s.sigma_max = cpml->require<Vec3>("sigma_max");
      for (int axis = 0; axis < 3; ++axis)
        non_negative((*s.sigma_max)[axis], indexed(cpml->key_path("sigma_max"), axis));
    } else if (cpml->has("sigma_max")) {
      const double sigma = non_negative(cpml->require<double>("sigma_max"), cpml->key_path("sigma_max"));
      s.sigma_max = Vec3{sigma, sigma, sigma};
    }
    s.kappa_max = cpml->get_or("kappa_max", s.kappa_max);
    if (!(s.kappa_max >= 1))
      throw DeckError(cpml->key_path("kappa_max"), "must be >= 1, got " + format_number(s.kappa_max));
    s.alpha_max = non_negative(cpml->get_or("alpha_max", s.alpha_max), cpml->key_path("alpha_max"));
    if (!deck.has_cpml())
      deck.warnings.push_back(
          "warning: boundary.cpml is given but no face is cpml (set boundary.all or a face "
          "to \"cpml\"); it has no effect");
  }
  const auto cells = deck.grid.as_array();
  for (int axis = 0; axis < 3; ++axis) {
    const int slabs =
        (deck.boundary[2 * axis] == BoundaryKind::cpml) + (deck.boundary[2 * axis + 1] == BoundaryKind::cpml);
    if (slabs == 0) continue;
    if (cells[axis] - slabs * deck.cpml.cells < kCpmlMinInteriorCells)
      throw DeckError(
          cpml ? cpml->key_path("cells") : "boundary.cpml.cells",
          std::to_string(slabs) + " CPML slab" + (slabs > 1 ? "s" : "") + " of " + std::to_string(deck.cpml.cells) +
              " cells leave " + std::to_string(cells[axis] - slabs * deck.cpml.cells) + " of the " +
              std::to_string(cells[axis]) + " cells along " + std::string(kAxisNames[axis]) + "; at least " +
              std::to_string(kCpmlMinInteriorCells) + " interior cells are needed (thinner PML or a larger grid)");
    check_cpml_coefficients(deck, axis);
  }
}

// `all` sets every face; a face named on its own overrides it.
void parse_boundary(const TableReader& root, Deck& deck) {
  deck.boundary.fill(BoundaryKind::pec);
  const auto boundary = root.table("boundary", {"all", "x_min", "x_max", "y_min", "y_max", "z_min", "z_max", "cpml"});
  if (!boundary) return;
  if (boundary->has("all")) deck.boundary.fill(parse_boundary_kind(*boundary, "all"));
  for (std::size_t face = 0; face < kFaceNames.size(); ++face)
    if (boundary->has(kFaceNames[face])) deck.boundary[face] = parse_boundary_kind(*boundary, kFaceNames[face]);
  parse_cpml(*boundary, deck);
}

// A soft source inside an absorber is meaningless: its field is damped where it is created.
// The source's E component sits at its node, half a cell up along the polarisation; it lies in a
// CPML slab where the slab's depth there is above zero.
void check_source_outside_cpml(const Source& source, const Deck& deck, const std::string& path) {
  const auto cells = deck.grid.as_array();
  for (int axis = 0; axis < 3; ++axis) {
    const double x =
        std::llround(source.position[axis] / deck.cell_size[axis]) + (axis == source.polarisation ? 0.5 : 0.0);
    const Index n = deck.cpml.cells;
    const bool in_min = deck.boundary[2 * axis] == BoundaryKind::cpml && x < n;
    const bool in_max = deck.boundary[2 * axis + 1] == BoundaryKind::cpml && x > cells[axis] - n;
    if (!in_min && !in_max) continue;
    throw DeckError(path, std::string(kAxisNames[axis]) + " = " + format_number(source.position[axis]) +
                              " m lies inside the " + std::string(kFaceNames[2 * axis + (in_max ? 1 : 0)]) +
                              " CPML slab (" + std::to_string(n) + " cells, " +
                              format_number(n * deck.cell_size[axis]) +
                              " m thick); a source inside the absorber is meaningless: move it into the interior");
  }
}

void parse_materials(const TableReader& root, Deck& deck) {
  for (const TableReader& entry : root.array_of_tables("material", {"name", "eps_r", "sigma", "mu_r"})) {
    Material material;
    material.name = entry.require<std::string>("name");
    const std::string name_path = entry.key_path("name");
    if (std::find(kBuiltinMaterials.begin(), kBuiltinMaterials.end(), material.name) != kBuiltinMaterials.end())
      throw DeckError(name_path, in_quotes(material.name) + " is a built-in material (" + join(kBuiltinMaterials) +
                                     "); use it directly or choose another name");
    check_name(material.name, name_path, deck.materials, "material");
    material.eps_r = positive(entry.get_or("eps_r", 1.0), entry.key_path("eps_r"));
    material.sigma = non_negative(entry.get_or("sigma", 0.0), entry.key_path("sigma"));
    material.mu_r = positive(entry.get_or("mu_r", 1.0), entry.key_path("mu_r"));
    deck.materials.push_back(material);
  }
}

ShapeKind parse_shape(const TableReader& entry) {
  const auto shape = entry.get_or<std::string>("shape", "box");
  const auto it = std::find(kShapeNames.begin(), kShapeNames.end(), shape);
  if (it == kShapeNames.end())
    throw DeckError(entry.key_path("shape"),
                    "unknown shape " + in_quotes(shape) + " (expected one of: " + join(kShapeNames) + ")");
  return static_cast<ShapeKind>(it - kShapeNames.begin());
}

void parse_box(const TableReader& entry, const Vec3& extent, GeometryObject& object) {
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
}

void parse_sphere(const TableReader& entry, GeometryObject& object) {
  object.centre = entry.require<Vec3>("centre");
  object.radius = positive(entry.require<double>("radius"), entry.key_path("radius"));
}

void parse_cylinder(const TableReader& entry, GeometryObject& object) {
  object.axis = required_choice(entry, "axis", kAxisNames);
  object.centre = entry.require<Vec3>("centre");
  object.radius = positive(entry.require<double>("radius"), entry.key_path("radius"));
  object.axis_lower = entry.require<double>("lower");
  object.axis_upper = entry.require<double>("upper");
  if (!(object.axis_lower < object.axis_upper))
    throw DeckError(entry.key_path("upper"), "upper must be greater than lower (the extent along the " +
                                                 std::string(kAxisNames[object.axis]) +
                                                 " axis); lower = " + format_number(object.axis_lower) +
                                                 ", upper = " + format_number(object.axis_upper));
}

// Squared distance from `point` to the nearest point of the grid, over every axis but `skip`
// (-1: all three).
double squared_distance_to_grid(const Vec3& point, const Vec3& extent, int skip) {
  double sum = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (axis == skip) continue;
    const double gap = std::max({0.0, -point[axis], point[axis] - extent[axis]});
    sum += gap * gap;
  }
  return sum;
}

// A sphere or cylinder may reach beyond the grid (the model clips it) but must not miss it.
// Boxes are checked corner by corner instead (both corners inside the grid).
void check_overlaps_grid(const GeometryObject& object, const Vec3& extent, const std::string& path) {
  const double radius_squared = object.radius * object.radius;
  bool outside = false;
  if (object.shape == ShapeKind::sphere) outside = squared_distance_to_grid(object.centre, extent, -1) > radius_squared;
  if (object.shape == ShapeKind::cylinder)
    outside = object.axis_upper < 0 || object.axis_lower > extent[object.axis] ||
              squared_distance_to_grid(object.centre, extent, object.axis) > radius_squared;
  if (outside)
    throw DeckError(path, "the " + std::string(kShapeNames[static_cast<int>(object.shape)]) +
                              " lies outside the grid, which spans [0, " + format_number(extent[0]) + "] x [0, " +
                              format_number(extent[1]) + "] x [0, " + format_number(extent[2]) +
                              "] m; at least part of it must be inside");
}

void parse_geometry(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries =
      root.array_of_tables("geometry", {"shape", "material", "lower", "upper", "centre", "radius", "axis"});
  for (const TableReader& entry : entries) {
    GeometryObject object;
    object.shape = parse_shape(entry);
    switch (object.shape) {
      case ShapeKind::box: entry.allow_only({"shape", "material", "lower", "upper"}, "a box"); break;
      case ShapeKind::sphere: entry.allow_only({"shape", "material", "centre", "radius"}, "a sphere"); break;
      case ShapeKind::cylinder:
        entry.allow_only({"shape", "material", "axis", "centre", "radius", "lower", "upper"}, "a cylinder");
        break;
    }
    object.material = entry.require<std::string>("material");
    if (!find_material(deck, object.material))
      throw DeckError(entry.key_path("material"),
                      "unknown material " + in_quotes(object.material) +
                          " (define it in a [[material]] table, or use a built-in: " + join(kBuiltinMaterials) + ")");
    switch (object.shape) {
      case ShapeKind::box: parse_box(entry, extent, object); break;
      case ShapeKind::sphere: parse_sphere(entry, object); break;
      case ShapeKind::cylinder: parse_cylinder(entry, object); break;
    }
    check_overlaps_grid(object, extent, entry.path());
    deck.geometry.push_back(object);
  }
}

// The largest |W(t)| of a waveform (waveform_value in src/solver/model.cpp): 1, but 2 pi f e^(-1/2)
// for the gaussian derivative, whose peak grows with f.
double waveform_peak(const Source& source) {
  const bool grows = source.waveform == WaveformKind::gaussian_derivative;
  return grows ? 2 * std::numbers::pi * source.frequency * std::exp(-0.5) : 1.0;
}

// Each step adds source_coefficient * W(t) to the source's E component, a float32 by default: the
// largest such term must itself be a finite float32, or the first steps already overflow. (A field
// that outgrows float32 over many steps is the run's own check: it stops when the fields are not
// finite.) The coefficient is that of the material in use with the largest one, a bound that does
// not depend on where the geometry puts the source.
void check_source_amplitude(const Source& source, const Deck& deck, const std::string& path) {
  double per_ampere = 0;  // largest term per ampere (V/m per A)
  for (const auto& in_use : materials_in_use(deck)) {
    const double coefficient = source_coefficient(1.0, source.polarisation, in_use.material, deck.dt(), deck.cell_size);
    per_ampere = std::max(per_ampere, coefficient * waveform_peak(source));
  }
  const double largest_term = std::abs(source.amplitude) * per_ampere;
  if (largest_term <= kFloatMax) return;
  // gaussian_derivative's W(t) is in 1/s, so its amplitude is in A s; the others' W is dimensionless.
  const std::string amplitude_unit = source.waveform == WaveformKind::gaussian_derivative ? " A s" : " A";
  throw DeckError(path, format_number(source.amplitude) + amplitude_unit + " would add up to " +
                            format_number(largest_term) + " V/m to " +
                            std::string(component_name(static_cast<Component>(source.polarisation))) +
                            " in one step, beyond the float32 range (" + format_number(kFloatMax) +
                            "; decks are checked for float32, the default precision, under f64 too)"
                            "; the largest amplitude for this deck is " +
                            format_limit(kFloatMax / per_ampere) + amplitude_unit);
}

void parse_sources(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables(
      "source", {"type", "name", "polarisation", "position", "waveform", "amplitude", "frequency"});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const TableReader& entry = entries[i];
    const auto type = entry.get_or<std::string>("type", "hertzian_dipole");
    if (type != "hertzian_dipole")
      throw DeckError(entry.key_path("type"), "unknown source type " + in_quotes(type) + " (expected hertzian_dipole)");
    Source source;
    source.name = entry.get_or("name", "source" + std::to_string(i));
    check_name(source.name, entry.key_path("name"), deck.sources, "source");
    source.polarisation = required_choice(entry, "polarisation", kAxisNames);
    source.position = entry.require<Vec3>("position");
    check_inside_grid(source.position, extent, entry.key_path("position"));
    check_source_node(source, deck, entry.key_path("position"));
    check_source_outside_cpml(source, deck, entry.key_path("position"));
    source.waveform = static_cast<WaveformKind>(required_choice(entry, "waveform", kWaveformNames));
    source.amplitude = entry.get_or("amplitude", 1.0);
    source.frequency = positive(entry.require<double>("frequency"), entry.key_path("frequency"));
    if (!std::isnormal(source.frequency))  // the waveforms are delayed by 1/f or sqrt(2)/f
      throw DeckError(
          entry.key_path("frequency"),
          format_number(source.frequency) + " Hz is a subnormal double, which makes the waveform's delay 1/f infinite");
    const double nyquist = 1 / (2 * deck.dt());  // the grid carries nothing above it
    if (!(source.frequency < nyquist))
      throw DeckError(entry.key_path("frequency"),
                      format_exact(source.frequency) + " Hz is not below the Nyquist frequency 1/(2 dt) = " +
                          format_exact(nyquist) + " Hz of the time step dt = " + format_number(deck.dt()) + " s");
    check_source_amplitude(source, deck, entry.key_path("amplitude"));
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
  for (const TableReader& entry : root.array_of_tables("snapshot", {"name", "components", "every", "plane"})) {
    Snapshot snapshot;
    snapshot.name = entry.require<std::string>("name");
    check_name(snapshot.name, entry.key_path("name"), deck.snapshots, "snapshot");
    // A snapshot writes NAME.h5 and NAME.xdmf next to run.json and the probe file.
    if (snapshot.name + ".h5" == kProbeFileName)
      throw DeckError(entry.key_path("name"),
                      in_quotes(snapshot.name) + " is reserved (the probe file " + std::string(kProbeFileName) + ")");
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

// ---- advice on a valid deck ---------------------------------------------------------------------

// The Yee scheme's phase error grows as (cell / wavelength)^2: below about 10 cells per wavelength
// pulses visibly spread and lag.
constexpr double kFewestCellsPerWavelength = 10;

// The highest frequency a waveform puts real energy into: 3 f for the pulses (the gaussian's
// spectrum is down to about 1% there), f for the sine.
double highest_frequency(const Source& source) {
  return source.waveform == WaveformKind::ramped_sine ? source.frequency : 3 * source.frequency;
}

// One warning per source whose shortest wavelength, in the slowest material any object is made
// of, spans fewer than kFewestCellsPerWavelength of the largest cell size.
std::vector<std::string> resolution_warnings(const Deck& deck) {
  double slowest = 0;  // the largest eps_r * mu_r
  for (const auto& in_use : materials_in_use(deck))
    slowest = std::max(slowest, in_use.material.eps_r * in_use.material.mu_r);
  const double largest_cell = *std::max_element(deck.cell_size.begin(), deck.cell_size.end());
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < deck.sources.size(); ++i) {
    const Source& source = deck.sources[i];
    const double cells = kSpeedOfLight / std::sqrt(slowest) / highest_frequency(source) / largest_cell;
    if (cells >= kFewestCellsPerWavelength) continue;
    char count[32];
    std::snprintf(count, sizeof count, "%.1f", cells);
    warnings.push_back("warning: " + indexed("source", i) + ".frequency: " + format_number(source.frequency) + " Hz (" +
                       std::string(kWaveformNames[static_cast<int>(source.waveform)]) + ", content up to " +
                       format_number(highest_frequency(source)) + " Hz) gives " + count +
                       " cells per wavelength in the slowest material (eps_r*mu_r = " + format_number(slowest) +
                       "); fewer than ~10 cells per wavelength means visible numerical dispersion");
  }
  return warnings;
}

// Without output.directory a deck file writes to yeex-output/<its file stem>, so that decks run
// from one folder do not overwrite each other's output; a deck from no file, to yeex-output.
std::string default_output_directory(const std::string& origin) {
  const std::string stem = std::filesystem::path(origin).stem().string();
  if (origin == "<string>" || stem.empty() || stem == "." || stem == "..") return "yeex-output";
  return "yeex-output/" + stem;
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

bool Deck::has_cpml() const {
  return std::find(boundary.begin(), boundary.end(), BoundaryKind::cpml) != boundary.end();
}

// The usual optimum (Gedney; Taflove & Hagness 7.62) for eps_r = mu_r = 1.
double Deck::cpml_sigma_max(int axis) const {
  if (cpml.sigma_max) return (*cpml.sigma_max)[axis];
  const double eta0 = kMu0 * kSpeedOfLight;
  return 0.8 * (cpml.grading + 1) / (eta0 * cell_size[axis]);
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
  if (has_cpml())
    boundary_json["cpml"] = {{"cells", cpml.cells},
                             {"grading", cpml.grading},
                             {"sigma_max", {cpml_sigma_max(0), cpml_sigma_max(1), cpml_sigma_max(2)}},
                             {"kappa_max", cpml.kappa_max},
                             {"alpha_max", cpml.alpha_max}};

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
  for (const GeometryObject& g : geometry) {
    json object = {{"shape", kShapeNames[static_cast<int>(g.shape)]}, {"material", g.material}};
    switch (g.shape) {
      case ShapeKind::box: object.update({{"lower", g.lower}, {"upper", g.upper}}); break;
      case ShapeKind::sphere: object.update({{"centre", g.centre}, {"radius", g.radius}}); break;
      case ShapeKind::cylinder:
        object.update({{"axis", kAxisNames[g.axis]},
                       {"centre", g.centre},
                       {"radius", g.radius},
                       {"lower", g.axis_lower},
                       {"upper", g.axis_upper}});
        break;
    }
    out["geometry"].push_back(object);
  }
  for (const Source& s : sources)
    out["source"].push_back({{"type", "hertzian_dipole"},
                             {"name", s.name},
                             {"polarisation", kAxisNames[s.polarisation]},
                             {"position", s.position},
                             {"waveform", kWaveformNames[static_cast<int>(s.waveform)]},
                             {"amplitude", s.amplitude},
                             {"frequency", s.frequency}});
  for (const Probe& p : probes)
    out["probe"].push_back({{"name", p.name}, {"position", p.position}, {"components", component_names(p.components)}});
  for (const Snapshot& s : snapshots) {
    json snapshot = {{"name", s.name}, {"components", component_names(s.components)}, {"every", s.every}};
    if (s.plane_axis) snapshot["plane"] = {{"axis", kAxisNames[*s.plane_axis]}, {"position", s.plane_position}};
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
  check_stability(deck);
  check_update_coefficients(deck);
  parse_sources(root, deck);
  parse_probes(root, deck);
  parse_snapshots(root, deck);
  deck.output_dir = default_output_directory(origin);
  parse_output(root, deck);
  for (std::string& warning : resolution_warnings(deck)) deck.warnings.push_back(std::move(warning));
  return deck;
}

Deck parse_deck_file(const std::filesystem::path& path) {
  return parse_deck_string(read_deck_file(path), path.string());
}

std::string read_deck_file(const std::filesystem::path& path) {
  const auto refuse = [&](const std::string& reason) {
    throw DeckError("", "cannot read deck file '" + path.string() + "': " + reason);
  };
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) refuse("no such file");
  if (error) refuse(error.message());
  if (std::filesystem::is_directory(status)) refuse("is a directory");
  if (!std::filesystem::is_regular_file(status)) refuse("not a regular file");
  // C stdio, for errno's reason (permission denied, ...); an empty file is an empty deck.
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) refuse(std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, file.get())) text.append(buffer, got);
  if (std::ferror(file.get())) refuse(std::strerror(errno));
  return text;
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
                   .frequency = 2.4e9}};
  deck.probes = {{.name = "rx_air", .position = {0.040, 0.064, 0.064}, .components = {Component::Ez, Component::Hy}},
                 {.name = "rx_block", .position = {0.088, 0.064, 0.064}, .components = {Component::Ez}}};
  deck.snapshots = {
      {.name = "ez_xy", .components = {Component::Ez}, .every = 50, .plane_axis = 2, .plane_position = 0.064}};
  deck.output_dir = "yeex-output/dipole_box";  // as inputs/dipole_box.toml, the same problem
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
