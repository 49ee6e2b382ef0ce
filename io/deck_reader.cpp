// Reading the deck's TOML: messages, conversions, the TableReader and the shared checks
// (io/deck_reader.hpp).
#include "io/deck_reader.hpp"

#include <cmath>
#include <cstdio>
#include <numeric>

namespace yeex::deck_detail {
namespace {

constexpr std::size_t kLongestQuote = 60;

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

}  // namespace

// ---- text of messages ---------------------------------------------------------------------------

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string format_limit(double value) {
  const double scale = std::pow(10.0, 8 - std::floor(std::log10(std::abs(value))));
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", std::trunc(value * scale) / scale);
  return text;
}

std::string format_exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string format_vector(const Vec3& v) {
  return "[" + format_number(v[0]) + ", " + format_number(v[1]) + ", " + format_number(v[2]) + "]";
}

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

// ---- conversion of one TOML value to the C++ type the deck stores -------------------------------

[[noreturn]] void wrong_type(const std::string& path, std::string_view expected, const toml::node& node) {
  throw DeckError(path, "expected " + std::string(expected) + ", got " + std::string(type_name(node)));
}

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

// ---- one table of the deck ----------------------------------------------------------------------

TableReader::TableReader(const toml::table& table, std::string path, std::initializer_list<std::string_view> known)
    : table_(&table), path_(std::move(path)), known_(known) {
  for (const auto& [key, node] : table)
    if (!is_known(key.str())) throw DeckError(key_path(key.str()), unknown_key_problem(key.str()));
}

void TableReader::allow_only(std::initializer_list<std::string_view> allowed, std::string_view kind) const {
  for (const auto& [key, node] : *table_)
    if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end())
      throw DeckError(key_path(key.str()), "unknown key for " + std::string(kind) + " (" + std::string(kind) +
                                               " takes: " + join(allowed) + ")");
}

std::optional<TableReader> TableReader::table(std::string_view key,
                                              std::initializer_list<std::string_view> known) const {
  assert(is_known(key));
  const toml::node* node = table_->get(key);
  if (!node) return std::nullopt;
  if (!node->is_table()) wrong_type(key_path(key), "a table", *node);
  return TableReader(*node->as_table(), key_path(key), known);
}

std::vector<TableReader> TableReader::array_of_tables(std::string_view key,
                                                      std::initializer_list<std::string_view> known,
                                                      std::size_t most) const {
  assert(is_known(key));
  const toml::node* node = table_->get(key);
  std::vector<TableReader> entries;
  if (!node) return entries;
  const std::string expected = "an array of tables ([[" + std::string(key) + "]] entries)";
  const auto* array = node->as_array();
  if (!array) wrong_type(key_path(key), expected, *node);
  if (array->size() > most)
    throw DeckError(key_path(key), std::to_string(array->size()) + " [[" + std::string(key) +
                                       "]] entries are more than the limit of " + std::to_string(most));
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::node& entry = *array->get(i);
    if (!entry.is_table()) wrong_type(indexed(key_path(key), i), expected, entry);
    entries.emplace_back(*entry.as_table(), indexed(key_path(key), i), known);
  }
  return entries;
}

// "Did you mean" the first closest known key within 2 edits. Lengths that differ by more than 2
// are more than 2 edits apart, which spares measuring a huge key against every known one.
std::string TableReader::unknown_key_problem(std::string_view key) const {
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

// ---- checks shared by several keys --------------------------------------------------------------

double positive(double value, const std::string& path) {
  if (!(value > 0)) throw DeckError(path, "must be > 0, got " + format_number(value));
  return value;
}

double non_negative(double value, const std::string& path) {
  if (!(value >= 0)) throw DeckError(path, "must be >= 0, got " + format_number(value));
  return value;
}

Vec3 grid_extent(const Deck& deck) {
  const auto cells = deck.grid.as_array();
  return {cells[0] * deck.cell_size[0], cells[1] * deck.cell_size[1], cells[2] * deck.cell_size[2]};
}

namespace {

// The tolerance absorbs n*d rounding.
bool inside_extent(double position, double extent) {
  const double tolerance = 1e-9 * extent;
  return position >= -tolerance && position <= extent + tolerance;
}

}  // namespace

void check_inside_axis(double position, int axis, const Vec3& extent, const std::string& path) {
  if (!inside_extent(position, extent[axis]))
    throw DeckError(path, std::string(kAxisNames[axis]) + " = " + format_number(position) +
                              " m is outside the grid, which spans [0, " + format_number(extent[axis]) + "] m along " +
                              std::string(kAxisNames[axis]));
}

void check_inside_grid(const Vec3& position, const Vec3& extent, const std::string& path) {
  for (int axis = 0; axis < 3; ++axis) check_inside_axis(position[axis], axis, extent, path);
}

std::vector<Component> parse_components(const TableReader& table) {
  const auto names = table.get<std::vector<std::string>>("components");
  if (!names) return {kAllComponents.begin(), kAllComponents.end()};
  const std::string path = table.key_path("components");
  if (names->empty()) throw DeckError(path, "list at least one component, or leave the key out for all six");
  std::vector<std::string_view> component_names;  // for the message
  for (Component c : kAllComponents) component_names.push_back(component_name(c));
  std::vector<Component> components;
  for (std::size_t i = 0; i < names->size(); ++i) {
    const auto component = parse_component((*names)[i]);
    if (!component)
      throw DeckError(indexed(path, i), "unknown component " + in_quotes((*names)[i]) +
                                            " (expected one of: " + join(component_names) + ")");
    if (std::find(components.begin(), components.end(), *component) != components.end())
      throw DeckError(indexed(path, i), "component " + in_quotes((*names)[i]) + " is listed twice");
    components.push_back(*component);
  }
  return components;
}

}  // namespace yeex::deck_detail
