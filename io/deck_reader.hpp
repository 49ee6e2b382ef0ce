// Reading the deck's TOML, one table at a time (internal to yeex_io; io/deck.hpp is the interface).
//
// Every table is read through a TableReader that is told which keys its table may hold, and
// refuses any other key before anything else is read: a misspelt key is then reported as itself
// ("source[1].frequncy: unknown key (did you mean 'frequency'?)") and not as the "missing
// frequency" it causes. Values are converted to the types the deck stores by `convert`, which
// names the key in every refusal; the checks shared by several tables (ranges, names, positions in
// the grid) follow.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "io/deck.hpp"

namespace yeex::deck_detail {

inline constexpr std::array<std::string_view, 3> kAxisNames = {"x", "y", "z"};
inline constexpr std::array<std::string_view, 6> kFaceNames = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
inline constexpr std::array<std::string_view, 4> kWaveformNames = {"gaussian", "gaussian_derivative", "ricker",
                                                                   "ramped_sine"};
inline constexpr std::array<std::string_view, 2> kBoundaryNames = {"pec", "cpml"};  // indexed by BoundaryKind
inline constexpr std::array<std::string_view, 3> kShapeNames = {"box", "sphere", "cylinder"};  // indexed by ShapeKind
inline constexpr std::array<std::string_view, 2> kBuiltinMaterials = {"free_space", "pec"};

// ---- text of messages ---------------------------------------------------------------------------

std::string format_number(double value);
// A limit a user may copy into the deck: 9 digits, cut towards zero, so the printed value passes.
std::string format_limit(double value);
// Two numbers a message compares, with the digits that tell them apart.
std::string format_exact(double value);
std::string format_vector(const Vec3& v);

template <class Range>
std::string join(const Range& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

// User text (a key, a name) quoted in a message is cut to 60 characters: a key of megabytes would
// otherwise be echoed whole.
std::string shortened(std::string_view text);
std::string in_quotes(std::string_view text);
std::string indexed(std::string_view path, std::size_t index);

// ---- conversion of one TOML value to the C++ type the deck stores -------------------------------

[[noreturn]] void wrong_type(const std::string& path, std::string_view expected, const toml::node& node);

// Defined for std::string, Index, double, std::vector<std::string>, Vec3 and std::array<Index, 3>.
template <class T>
T convert(const toml::node& node, const std::string& path);
template <>
std::string convert(const toml::node& node, const std::string& path);
template <>
Index convert(const toml::node& node, const std::string& path);
template <>
double convert(const toml::node& node, const std::string& path);
template <>
std::vector<std::string> convert(const toml::node& node, const std::string& path);
template <>
Vec3 convert(const toml::node& node, const std::string& path);
template <>
std::array<Index, 3> convert(const toml::node& node, const std::string& path);

// ---- one table of the deck ----------------------------------------------------------------------

class TableReader {
 public:
  // Throws on the first key of `table` that is not in `known`.
  TableReader(const toml::table& table, std::string path, std::initializer_list<std::string_view> known);

  const std::string& path() const { return path_; }
  std::string key_path(std::string_view key) const {
    return path_.empty() ? shortened(key) : path_ + "." + shortened(key);
  }

  // Throws on the first key that is not in `allowed`, for a table whose keys depend on one of its
  // values (a geometry object's shape); `kind` names what the table is, e.g. "a sphere".
  void allow_only(std::initializer_list<std::string_view> allowed, std::string_view kind) const;
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
  std::optional<TableReader> table(std::string_view key, std::initializer_list<std::string_view> known) const;

  // The entries of an array of tables ([[key]] ...), read as key[0], key[1], ...; more than
  // `most` entries are refused before any is read.
  std::vector<TableReader> array_of_tables(std::string_view key, std::initializer_list<std::string_view> known,
                                           std::size_t most) const;

 private:
  bool is_known(std::string_view key) const { return std::find(known_.begin(), known_.end(), key) != known_.end(); }
  std::string unknown_key_problem(std::string_view key) const;

  const toml::table* table_;
  std::string path_;
  std::vector<std::string_view> known_;
};

// ---- limits (io/deck_limits.cpp) ----------------------------------------------------------------

// The deck's size and nesting (kMaxDeckBytes, kMaxDeckNesting), measured on the text before the
// TOML parser sees it; `origin` names the deck in the message.
void check_deck_text(std::string_view text, const std::string& origin);

// Text written to the output files and the terminal: at most `most` bytes, without control
// characters (a newline or an escape sequence in a title would garble the summary line). toml++
// has already refused what is not UTF-8, and convert() a NUL.
const std::string& check_text(const std::string& text, const std::string& path, std::size_t most);

// ---- checks shared by several keys --------------------------------------------------------------

double positive(double value, const std::string& path);
double non_negative(double value, const std::string& path);

// A required string that must be one of `names`; returns its index.
template <std::size_t N>
int required_choice(const TableReader& table, std::string_view key, const std::array<std::string_view, N>& names) {
  const auto value = table.require<std::string>(key);
  const auto it = std::find(names.begin(), names.end(), value);
  if (it == names.end()) throw DeckError(table.key_path(key), in_quotes(value) + " is not one of: " + join(names));
  return static_cast<int>(it - names.begin());
}

// Names appear in output files and reports: short, plain and unique within their kind. A plain
// name is ASCII without '/' or '.', so it is a valid HDF5 object name and file name stem.
template <class Item>
void check_name(const std::string& name, const std::string& path, const std::vector<Item>& earlier,
                std::string_view kind) {
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (!plain) throw DeckError(path, in_quotes(name) + " is not a valid name: use letters, digits, '_' and '-' only");
  if (name.size() > kMaxNameBytes)
    throw DeckError(path, in_quotes(name) + " is " + std::to_string(name.size()) +
                              " characters long; a name has at most " + std::to_string(kMaxNameBytes));
  const auto same = std::find_if(earlier.begin(), earlier.end(), [&](const Item& item) { return item.name == name; });
  if (same != earlier.end())
    throw DeckError(path, "duplicate " + std::string(kind) + " name " + in_quotes(name) + " (already used by " +
                              indexed(kind, static_cast<std::size_t>(same - earlier.begin())) + ")");
}

// The grid's size in metres along x, y, z.
Vec3 grid_extent(const Deck& deck);
// Positions on the outer faces count as inside (within rounding).
void check_inside_axis(double position, int axis, const Vec3& extent, const std::string& path);
void check_inside_grid(const Vec3& position, const Vec3& extent, const std::string& path);

// The `components` key of a probe or snapshot: all six when absent.
std::vector<Component> parse_components(const TableReader& table);

}  // namespace yeex::deck_detail
