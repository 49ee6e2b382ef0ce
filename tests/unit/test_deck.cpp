// The input deck (io/deck.cpp): the format with every key, its defaults, the derived time step,
// the resolved JSON, the example decks in inputs/, and one test per refusal.
#include "io/deck.hpp"
#include "physics/constants.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace yeex {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kInputs = std::filesystem::path(YEEX_SOURCE_DIR) / "inputs";

// The two required tables: a 0.1 m cube of 1 cm cells, 100 steps.
const std::string kGridAndTime = R"([grid]
cells = [10, 10, 10]
cell_size = [0.01, 0.01, 0.01]

[time]
steps = 100
)";

// A valid deck using every table; the error cases below are small edits of it.
const std::string kValidDeck = kGridAndTime + R"(
[[material]]
name = "glass"
eps_r = 4.0
sigma = 0.0

[[geometry]]
material = "glass"
lower = [0.02, 0.02, 0.02]
upper = [0.04, 0.04, 0.04]

[[source]]
polarisation = "z"
position = [0.05, 0.05, 0.05]
waveform = "gaussian"
frequency = 1e9

[[probe]]
name = "rx"
position = [0.07, 0.05, 0.05]
components = ["Ez", "Hy"]

[[snapshot]]
name = "ez_mid"
components = ["Ez"]
every = 10
plane = { axis = "z", position = 0.05 }
)";

// A sphere and a cylinder to append to kValidDeck: they become geometry[1] and geometry[2].
const std::string kSphere = R"(
[[geometry]]
shape = "sphere"
material = "glass"
centre = [0.06, 0.05, 0.04]
radius = 0.02
)";

const std::string kCylinder = R"(
[[geometry]]
shape = "cylinder"
material = "pec"
axis = "y"
centre = [0.03, 0.5, 0.07]
radius = 0.01
lower = 0.02
upper = 0.08
)";

// `text` with the one occurrence of `from` replaced by `to`.
std::string edited(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos)
    throw std::logic_error("test deck edit '" + std::string(from) + "' does not match exactly once");
  return text.replace(at, from.size(), to);
}

// kValidDeck with the one occurrence of `from` replaced by `to`.
std::string edited(std::string_view from, std::string_view to) { return edited(kValidDeck, from, to); }

std::string sphere_edited(std::string_view from, std::string_view to) { return kValidDeck + edited(kSphere, from, to); }

std::string cylinder_edited(std::string_view from, std::string_view to) {
  return kValidDeck + edited(kCylinder, from, to);
}

double cfl_formula(const Vec3& d, double courant) {
  return courant / (kSpeedOfLight * std::sqrt(1 / (d[0] * d[0]) + 1 / (d[1] * d[1]) + 1 / (d[2] * d[2])));
}

// TOML text for a JSON value: inline tables and arrays throughout, which TOML reads as the same
// tables and arrays of tables as the [table] / [[array]] spelling. Strings and numbers are spelt
// alike in both (nlohmann writes doubles in their shortest round-trip form).
std::string toml_value(const nlohmann::json& value) {
  std::string text;
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) text += (text.empty() ? "" : ", ") + key + " = " + toml_value(item);
    return "{" + text + "}";
  }
  if (value.is_array()) {
    for (const auto& item : value) text += (text.empty() ? "" : ", ") + toml_value(item);
    return "[" + text + "]";
  }
  return value.dump();
}

// Writes the resolved deck back as a deck, without the derived values it is not allowed to give.
std::string resolved_deck_as_toml(nlohmann::json resolved) {
  resolved["time"].erase("dt");
  if (resolved["time"].contains("duration")) resolved["time"].erase("steps");
  std::string text;
  for (const auto& [key, value] : resolved.items()) text += key + " = " + toml_value(value) + "\n";
  return text;
}

TEST(Deck, ParsesEveryKey) {
  const Deck deck = parse_deck_string(R"(
title = "every key"
[grid]
cells = [20, 30, 40]
cell_size = [1e-3, 2e-3, 3e-3]
[time]
steps = 250
courant = 0.5
[boundary]
all = "pec"
x_min = "pec"
[[material]]
name = "lossy-glass_2"
eps_r = 4.5
sigma = 0.02
mu_r = 1.5
[[geometry]]
shape = "box"
material = "pec"
lower = [0.002, 0.004, 0.006]
upper = [0.01, 0.02, 0.03]
[[source]]
type = "hertzian_dipole"
name = "tx"
polarisation = "y"
position = [0.01, 0.03, 0.06]
waveform = "ramped_sine"
amplitude = -2.5
frequency = 2.5e9
[[probe]]
name = "rx1"
position = [0.02, 0.06, 0.12]
components = ["Hz", "Ex"]
[[snapshot]]
name = "slice"
components = ["Ey", "Hx"]
every = 25
plane = { axis = "x", position = 0.01 }
[output]
directory = "out/run1"
)");
  EXPECT_EQ(deck.title, "every key");
  EXPECT_EQ(deck.grid.as_array(), (std::array<Index, 3>{20, 30, 40}));
  EXPECT_EQ(deck.cell_size, (Vec3{1e-3, 2e-3, 3e-3}));
  EXPECT_EQ(deck.steps, 250);
  EXPECT_FALSE(deck.duration);
  EXPECT_DOUBLE_EQ(deck.courant, 0.5);
  for (BoundaryKind face : deck.boundary) EXPECT_EQ(face, BoundaryKind::pec);

  ASSERT_EQ(deck.materials.size(), 1u);
  EXPECT_EQ(deck.materials[0].name, "lossy-glass_2");
  EXPECT_DOUBLE_EQ(deck.materials[0].eps_r, 4.5);
  EXPECT_DOUBLE_EQ(deck.materials[0].sigma, 0.02);
  EXPECT_DOUBLE_EQ(deck.materials[0].mu_r, 1.5);
  EXPECT_FALSE(deck.materials[0].pec);

  ASSERT_EQ(deck.geometry.size(), 1u);
  EXPECT_EQ(deck.geometry[0].shape, ShapeKind::box);
  EXPECT_EQ(deck.geometry[0].material, "pec");
  EXPECT_EQ(deck.geometry[0].lower, (Vec3{0.002, 0.004, 0.006}));
  EXPECT_EQ(deck.geometry[0].upper, (Vec3{0.01, 0.02, 0.03}));

  ASSERT_EQ(deck.sources.size(), 1u);
  const Source& source = deck.sources[0];
  EXPECT_EQ(source.name, "tx");
  EXPECT_EQ(source.polarisation, 1);
  EXPECT_EQ(source.position, (Vec3{0.01, 0.03, 0.06}));
  EXPECT_EQ(source.waveform, WaveformKind::ramped_sine);
  EXPECT_DOUBLE_EQ(source.amplitude, -2.5);
  EXPECT_DOUBLE_EQ(source.frequency, 2.5e9);

  ASSERT_EQ(deck.probes.size(), 1u);
  EXPECT_EQ(deck.probes[0].name, "rx1");
  EXPECT_EQ(deck.probes[0].position, (Vec3{0.02, 0.06, 0.12}));
  EXPECT_EQ(deck.probes[0].components, (std::vector{Component::Hz, Component::Ex}));

  ASSERT_EQ(deck.snapshots.size(), 1u);
  const Snapshot& snapshot = deck.snapshots[0];
  EXPECT_EQ(snapshot.name, "slice");
  EXPECT_EQ(snapshot.components, (std::vector{Component::Ey, Component::Hx}));
  EXPECT_EQ(snapshot.every, 25);
  EXPECT_EQ(snapshot.plane_axis, 0);
  EXPECT_DOUBLE_EQ(snapshot.plane_position, 0.01);

  EXPECT_EQ(deck.output_dir, "out/run1");
}

TEST(Deck, FillsInDefaults) {
  const Deck deck = parse_deck_string(R"(
[grid]
cells = [10, 10, 10]
cell_size = [0.01, 0.01, 0.01]
[time]
steps = 5
[[material]]
name = "plain"
[[geometry]]
material = "plain"
lower = [0, 0, 0]
upper = [0.1, 0.1, 0.1]
[[source]]
polarisation = "x"
position = [0.05, 0.05, 0.05]
waveform = "gaussian"
frequency = 1e9
[[probe]]
position = [0, 0, 0]
[[snapshot]]
name = "all"
every = 1
)");
  EXPECT_EQ(deck.title, "untitled");
  EXPECT_DOUBLE_EQ(deck.courant, 0.99);
  for (BoundaryKind face : deck.boundary) EXPECT_EQ(face, BoundaryKind::pec);
  EXPECT_EQ(deck.output_dir, "yeex-output");

  const Material& material = deck.materials.at(0);
  EXPECT_DOUBLE_EQ(material.eps_r, 1.0);
  EXPECT_DOUBLE_EQ(material.sigma, 0.0);
  EXPECT_DOUBLE_EQ(material.mu_r, 1.0);
  EXPECT_EQ(deck.geometry.at(0).shape, ShapeKind::box);
  EXPECT_EQ(deck.sources.at(0).name, "source0");
  EXPECT_DOUBLE_EQ(deck.sources.at(0).amplitude, 1.0);
  EXPECT_EQ(deck.probes.at(0).name, "probe0");
  const std::vector<Component> all_six(kAllComponents.begin(), kAllComponents.end());
  EXPECT_EQ(deck.probes.at(0).components, all_six);
  EXPECT_EQ(deck.snapshots.at(0).components, all_six);
  EXPECT_FALSE(deck.snapshots.at(0).plane_axis);
}

TEST(Deck, ParsesSpheresAndCylinders) {
  const Deck deck = parse_deck_string(kValidDeck + kSphere + kCylinder);
  ASSERT_EQ(deck.geometry.size(), 3u);
  const GeometryObject& sphere = deck.geometry[1];
  EXPECT_EQ(sphere.shape, ShapeKind::sphere);
  EXPECT_EQ(sphere.material, "glass");
  EXPECT_EQ(sphere.centre, (Vec3{0.06, 0.05, 0.04}));
  EXPECT_DOUBLE_EQ(sphere.radius, 0.02);
  const GeometryObject& cylinder = deck.geometry[2];
  EXPECT_EQ(cylinder.shape, ShapeKind::cylinder);
  EXPECT_EQ(cylinder.material, "pec");
  EXPECT_EQ(cylinder.axis, 1);
  EXPECT_EQ(cylinder.centre, (Vec3{0.03, 0.5, 0.07}));  // y lies outside the grid: along the axis it is unused
  EXPECT_DOUBLE_EQ(cylinder.radius, 0.01);
  EXPECT_DOUBLE_EQ(cylinder.axis_lower, 0.02);
  EXPECT_DOUBLE_EQ(cylinder.axis_upper, 0.08);

  // run.json holds each shape's own keys and no others.
  const nlohmann::json geometry = deck.to_json()["geometry"];
  EXPECT_EQ(geometry[1], nlohmann::json::parse(R"({"shape": "sphere", "material": "glass",
                                                   "centre": [0.06, 0.05, 0.04], "radius": 0.02})"));
  EXPECT_EQ(geometry[2], nlohmann::json::parse(R"({"shape": "cylinder", "material": "pec", "axis": "y",
                                                   "centre": [0.03, 0.5, 0.07], "radius": 0.01,
                                                   "lower": 0.02, "upper": 0.08})"));
}

// Curved objects may reach beyond the grid (the model clips them); they only must not miss it.
TEST(Deck, AcceptsCurvedObjectsPartlyOutsideTheGrid) {
  // A sphere around the x_max, y_max, z_max corner of the 0.1 m grid.
  EXPECT_NO_THROW(parse_deck_string(sphere_edited("centre = [0.06, 0.05, 0.04]", "centre = [0.11, 0.11, 0.11]")));
  // A cylinder whose axis runs outside the grid, beyond both ends.
  const std::string beyond = edited(edited(kCylinder, "centre = [0.03, 0.5, 0.07]", "centre = [-0.005, 0, 0.05]"),
                                    "lower = 0.02", "lower = -1");
  EXPECT_NO_THROW(parse_deck_string(kValidDeck + edited(beyond, "upper = 0.08", "upper = 1")));
}

TEST(Deck, TimeStepIsCourantTimesCflLimit) {
  const Deck deck = parse_deck_string(R"(
[grid]
cells = [4, 4, 4]
cell_size = [1e-3, 2e-3, 3e-3]
[time]
steps = 1
courant = 0.9
)");
  EXPECT_DOUBLE_EQ(deck.dt(), cfl_formula({1e-3, 2e-3, 3e-3}, 0.9));
  // A cube of side d: dt_cfl = d / (c sqrt 3).
  Deck cube = deck;
  cube.cell_size = {1e-3, 1e-3, 1e-3};
  cube.courant = 1.0;
  EXPECT_DOUBLE_EQ(cube.dt(), 1e-3 / (kSpeedOfLight * std::sqrt(3.0)));
}

TEST(Deck, DurationGivesStepCount) {
  const std::string grid = "[grid]\ncells = [4, 4, 4]\ncell_size = [1e-3, 1e-3, 1e-3]\n";
  const Deck deck = parse_deck_string(grid + "[time]\nduration = 1e-10\ncourant = 0.5\n");
  EXPECT_FALSE(deck.steps);
  ASSERT_TRUE(deck.duration);
  const double dt = cfl_formula(deck.cell_size, 0.5);
  EXPECT_EQ(deck.step_count(), static_cast<Index>(std::ceil(1e-10 / dt)));
  EXPECT_EQ(deck.to_json()["time"]["steps"], deck.step_count());

  // Shorter than one step still runs one.
  EXPECT_EQ(parse_deck_string(grid + "[time]\nduration = 1e-20\n").step_count(), 1);
}

TEST(Deck, JsonHoldsTheResolvedDeck) {
  const Deck deck = parse_deck_string(kValidDeck);
  const nlohmann::json json = deck.to_json();
  EXPECT_EQ(json["title"], "untitled");
  EXPECT_EQ(json["grid"]["cells"], nlohmann::json({10, 10, 10}));
  EXPECT_EQ(json["grid"]["cell_size"], nlohmann::json({0.01, 0.01, 0.01}));
  EXPECT_EQ(json["time"]["steps"], 100);
  EXPECT_DOUBLE_EQ(json["time"]["courant"].get<double>(), 0.99);
  EXPECT_DOUBLE_EQ(json["time"]["dt"].get<double>(), deck.dt());
  EXPECT_FALSE(json["time"].contains("duration"));
  EXPECT_EQ(json["boundary"]["z_max"], "pec");
  EXPECT_EQ(json["material"][0]["name"], "glass");
  EXPECT_EQ(json["material"][0]["mu_r"], 1.0);
  EXPECT_EQ(json["geometry"][0]["shape"], "box");
  EXPECT_EQ(json["geometry"][0]["upper"], nlohmann::json({0.04, 0.04, 0.04}));
  EXPECT_EQ(json["source"][0]["name"], "source0");
  EXPECT_EQ(json["source"][0]["polarisation"], "z");
  EXPECT_EQ(json["source"][0]["waveform"], "gaussian");
  EXPECT_EQ(json["probe"][0]["components"], nlohmann::json({"Ez", "Hy"}));
  EXPECT_EQ(json["snapshot"][0]["plane"]["axis"], "z");
  EXPECT_EQ(json["output"]["directory"], "yeex-output");
}

// The resolved JSON mirrors the TOML keys: written back as a deck, it parses to the same deck.
TEST(Deck, JsonRoundTripsThroughToml) {
  const std::string with_duration = edited("steps = 100", "duration = 2e-9\ncourant = 0.7");
  for (const std::string& text : {kValidDeck, with_duration, kValidDeck + kSphere + kCylinder}) {
    const nlohmann::json resolved = parse_deck_string(text).to_json();
    EXPECT_EQ(parse_deck_string(resolved_deck_as_toml(resolved)).to_json(), resolved);
  }
}

TEST(Deck, DefaultDeckRoundTripsThroughJson) {
  const nlohmann::json resolved = default_deck().to_json();
  EXPECT_EQ(parse_deck_string(resolved_deck_as_toml(resolved)).to_json(), resolved);
  EXPECT_EQ(resolved["time"]["steps"], 400);
  EXPECT_EQ(resolved["source"][0]["waveform"], "ricker");
}

TEST(Deck, DipoleBoxInputIsTheDefaultDeck) {
  EXPECT_EQ(parse_deck_file(kInputs / "dipole_box.toml").to_json(), default_deck().to_json());
}

// Without output.directory a deck file writes to yeex-output/<its file stem>, so that the decks of
// inputs/ do not overwrite each other's output; the key, when given, wins.
TEST(Deck, OutputDirectoryDefaultsToTheDeckFileName) {
  const std::string deck = "[grid]\ncells = [4, 4, 4]\ncell_size = [1e-3, 1e-3, 1e-3]\n[time]\nsteps = 1\n";
  EXPECT_EQ(parse_deck_file(kInputs / "cavity.toml").output_dir, "yeex-output/cavity");
  EXPECT_EQ(default_deck().output_dir, "yeex-output/dipole_box");
  EXPECT_EQ(parse_deck_string(deck, "some/where/my deck.toml").output_dir, "yeex-output/my deck");
  EXPECT_EQ(parse_deck_string(deck).output_dir, "yeex-output") << "a deck from no file";
  EXPECT_EQ(parse_deck_string(deck + "[output]\ndirectory = \"here\"\n", "a/b.toml").output_dir, "here");
}

// Every deck shipped in inputs/ must parse, and resolve its sources finely enough not to warn
// (the quickstart runs dipole_box.toml: a new user's first run prints no warning).
TEST(Deck, EveryExampleDeckParses) {
  int decks = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kInputs)) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    Deck deck;
    EXPECT_NO_THROW(deck = parse_deck_file(entry.path()));
    EXPECT_EQ(deck.warnings, std::vector<std::string>{});
    ++decks;
  }
  EXPECT_GE(decks, 3);
  const Deck slab = parse_deck_file(kInputs / "dielectric_slab_probe.toml");
  EXPECT_EQ(slab.grid.as_array(), (std::array<Index, 3>{32, 32, 48}));
  EXPECT_EQ(slab.step_count(), 260);

  // The scatterers deck uses every shape.
  const Deck scatterers = parse_deck_file(kInputs / "scatterers.toml");
  std::vector<ShapeKind> shapes;
  for (const GeometryObject& object : scatterers.geometry) shapes.push_back(object.shape);
  EXPECT_EQ(shapes, (std::vector{ShapeKind::sphere, ShapeKind::cylinder, ShapeKind::box}));
}

// The shortest wavelength (at 3 x frequency for the pulses, the frequency for the sine) in the
// slowest material any object is made of, over the largest cell: below 10 cells it warns.
TEST(Deck, WarnsOfTooFewCellsPerWavelength) {
  // kValidDeck: a 1 GHz gaussian and glass (eps_r = 4) on 1 cm cells: c / 2 / 3 GHz = 5.0 cells.
  const Deck coarse = parse_deck_string(kValidDeck);
  ASSERT_EQ(coarse.warnings.size(), 1u);
  EXPECT_EQ(coarse.warnings[0],
            "warning: source[0].frequency: 1e+09 Hz (gaussian, content up to 3e+09 Hz) gives 5.0 cells per "
            "wavelength in the slowest material (eps_r*mu_r = 4); fewer than ~10 cells per wavelength means "
            "visible numerical dispersion");
  // A tenth of the frequency: 50 cells.
  EXPECT_TRUE(parse_deck_string(edited("frequency = 1e9", "frequency = 1e8")).warnings.empty());
  // A sine has no content above its frequency: 15 cells.
  EXPECT_TRUE(parse_deck_string(edited("waveform = \"gaussian\"", "waveform = \"ramped_sine\"")).warnings.empty());
  // mu_r counts as much as eps_r: 4 x 4 = 16, so 2.5 cells.
  const Deck magnetic = parse_deck_string(edited("sigma = 0.0", "sigma = 0.0\nmu_r = 4"));
  ASSERT_EQ(magnetic.warnings.size(), 1u);
  EXPECT_THAT(magnetic.warnings[0], HasSubstr("gives 2.5 cells per wavelength"));
  EXPECT_THAT(magnetic.warnings[0], HasSubstr("(eps_r*mu_r = 16)"));
  // A material no object is made of does not count: free space, 2 GHz: 5.0 cells.
  const Deck unused = parse_deck_string(
      edited(edited("material = \"glass\"", "material = \"pec\""), "frequency = 1e9", "frequency = 2e9"));
  ASSERT_EQ(unused.warnings.size(), 1u);
  EXPECT_THAT(unused.warnings[0], HasSubstr("gives 5.0 cells per wavelength"));
  EXPECT_THAT(unused.warnings[0], HasSubstr("(eps_r*mu_r = 1)"));
  // One warning per source, naming it; the largest cell size counts.
  const Deck two = parse_deck_string(edited(R"([[source]]
polarisation = "z")",
                                            R"([[source]]
name = "fine"
polarisation = "y"
position = [0.05, 0.05, 0.05]
waveform = "ricker"
frequency = 1e7
[[source]]
polarisation = "z")"));
  ASSERT_EQ(two.warnings.size(), 1u);
  EXPECT_THAT(two.warnings[0], ::testing::StartsWith("warning: source[1].frequency: 1e+09 Hz"));
  // 50 cells of 1 cm at a tenth of the frequency, but 5.0 of 10 cm.
  const Deck long_cells = parse_deck_string(edited(
      edited("cell_size = [0.01, 0.01, 0.01]", "cell_size = [0.01, 0.01, 0.1]"), "frequency = 1e9", "frequency = 1e8"));
  ASSERT_EQ(long_cells.warnings.size(), 1u);
  EXPECT_THAT(long_cells.warnings[0], HasSubstr("gives 5.0 cells per wavelength"));
  // The default deck is built, not parsed: it carries no warnings.
  EXPECT_TRUE(default_deck().warnings.empty());
}

TEST(Deck, FindsBuiltInAndUserMaterials) {
  const Deck deck = default_deck();
  const auto free_space = find_material(deck, "free_space");
  ASSERT_TRUE(free_space);
  EXPECT_DOUBLE_EQ(free_space->eps_r, 1.0);
  EXPECT_DOUBLE_EQ(free_space->sigma, 0.0);
  EXPECT_DOUBLE_EQ(free_space->mu_r, 1.0);
  EXPECT_FALSE(free_space->pec);
  ASSERT_TRUE(find_material(deck, "pec"));
  EXPECT_TRUE(find_material(deck, "pec")->pec);
  ASSERT_TRUE(find_material(deck, "dielectric"));
  EXPECT_DOUBLE_EQ(find_material(deck, "dielectric")->eps_r, 4.0);
  EXPECT_FALSE(find_material(deck, "gold"));
}

TEST(Deck, MissingFileIsNamed) {
  const std::filesystem::path missing = kInputs / "no_such_deck.toml";
  try {
    parse_deck_file(missing);
    FAIL() << "no DeckError";
  } catch (const DeckError& error) {
    EXPECT_THAT(error.what(), HasSubstr(missing.string()));
  }
}

// A file in a fresh scratch directory, removed with it.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& text)
      : dir_(std::filesystem::temp_directory_path() / ("yeex-test-deck-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    std::ofstream(path(), std::ios::binary) << text;
  }
  ~ScratchFile() { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir() const { return dir_; }
  std::filesystem::path path() const { return dir_ / "deck.toml"; }

 private:
  std::filesystem::path dir_;
};

// What reading the deck file `path` is refused with.
std::string refusal_of_file(const std::filesystem::path& path) {
  try {
    parse_deck_file(path);
  } catch (const DeckError& error) {
    return error.what();
  }
  ADD_FAILURE() << path << " was accepted";
  return "";
}

// The DeckError that parsing `text` throws (fails the test if there is none).
DeckError refusal(const std::string& text) {
  try {
    parse_deck_string(text);
  } catch (const DeckError& error) {
    return error;
  }
  ADD_FAILURE() << "deck was accepted:\n" << text;
  return DeckError("", "");
}

// The number that follows `before` in `text`.
double number_after(const std::string& text, const std::string& before) {
  const auto at = text.find(before);
  if (at == std::string::npos) throw std::logic_error("'" + before + "' not in: " + text);
  return std::stod(text.substr(at + before.size()));
}

TEST(Deck, EmptyFileIsAnEmptyDeck) {
  const ScratchFile empty("");
  try {
    parse_deck_file(empty.path());
    FAIL() << "no DeckError";
  } catch (const DeckError& error) {
    EXPECT_EQ(error.key(), "grid");
    EXPECT_THAT(error.what(), HasSubstr("missing required table [grid]"));
  }
}

TEST(Deck, UnreadableFileSaysWhy) {
  const ScratchFile file(kValidDeck);
  EXPECT_THAT(refusal_of_file(file.dir()), HasSubstr("': is a directory"));
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a file whatever its permissions";
  std::filesystem::permissions(file.path(), std::filesystem::perms::none);
  EXPECT_THAT(refusal_of_file(file.path()), HasSubstr("': Permission denied"));
}

struct ErrorCase {
  std::string name;     // test name suffix
  std::string text;     // the deck
  std::string key;      // expected DeckError::key()
  std::string problem;  // expected part of what()
};

class DeckErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DeckErrorTest, IsRefusedNamingTheKey) {
  const ErrorCase& c = GetParam();
  try {
    parse_deck_string(c.text, "case.toml");
    FAIL() << "deck was accepted:\n" << c.text;
  } catch (const DeckError& error) {
    EXPECT_EQ(error.key(), c.key);
    EXPECT_THAT(error.what(), HasSubstr(c.problem));
    if (!c.key.empty()) {
      EXPECT_THAT(error.what(), ::testing::StartsWith(c.key + ": "));
    }
  }
}

TEST(Deck, ErrorCasesStartFromAValidDeck) {
  EXPECT_NO_THROW(parse_deck_string(kValidDeck));
  EXPECT_NO_THROW(parse_deck_string(kValidDeck + kSphere));
  EXPECT_NO_THROW(parse_deck_string(kValidDeck + kCylinder));
}

const std::string kSecondSource = R"(
[[source]]
polarisation = "x"
position = [0.05, 0.05, 0.05]
waveform = "ricker"
frequncy = 1e9
)";

// CPML on every face; the cases add [boundary.cpml] keys.
const std::string kCpml = "[boundary]\nall = \"cpml\"\n[boundary.cpml]\n";

TEST(Deck, ParsesCpml) {
  const Deck deck = parse_deck_string(
      "[boundary]\nall = \"cpml\"\nz_min = \"pec\"\n[boundary.cpml]\ncells = 3\n"
      "grading = 4\nsigma_max = 2.5\nkappa_max = 2\nalpha_max = 0.1\n" +
      kValidDeck);
  EXPECT_EQ(deck.boundary[0], BoundaryKind::cpml);
  EXPECT_EQ(deck.boundary[4], BoundaryKind::pec);
  EXPECT_EQ(deck.cpml.cells, 3);
  EXPECT_DOUBLE_EQ(deck.cpml.grading, 4);
  EXPECT_DOUBLE_EQ(deck.cpml_sigma_max(1), 2.5);
  EXPECT_DOUBLE_EQ(deck.cpml.kappa_max, 2);
  EXPECT_DOUBLE_EQ(deck.cpml.alpha_max, 0.1);
  const auto json = deck.to_json();
  EXPECT_EQ(json["boundary"]["x_min"], "cpml");
  EXPECT_EQ(json["boundary"]["cpml"]["cells"], 3);
  EXPECT_EQ(json["boundary"]["cpml"]["sigma_max"], nlohmann::json({2.5, 2.5, 2.5}));
  EXPECT_EQ(parse_deck_string(resolved_deck_as_toml(json)).to_json(), json);
}

TEST(Deck, CpmlDefaultsAreTheOptimumPerAxis) {
  const Deck deck = parse_deck_string(kCpml + "cells = 2\n" + kValidDeck);
  const CpmlSettings defaults;
  EXPECT_EQ(deck.cpml.grading, defaults.grading);
  EXPECT_FALSE(deck.cpml.sigma_max);
  const double eta0 = kMu0 * kSpeedOfLight;
  EXPECT_DOUBLE_EQ(deck.cpml_sigma_max(0), 0.8 * (defaults.grading + 1) / (eta0 * 0.01));
  for (const auto& warning : deck.warnings) EXPECT_THAT(warning, ::testing::Not(HasSubstr("cpml")));
  // The resolved deck holds the per-axis values and parses back to itself.
  const auto json = deck.to_json();
  EXPECT_EQ(parse_deck_string(resolved_deck_as_toml(json)).to_json(), json);
  // No cpml face: no cpml settings in run.json.
  EXPECT_FALSE(parse_deck_string(kValidDeck).to_json()["boundary"].contains("cpml"));
}

TEST(Deck, CourantMayReachTheLimitOfTheFastestMaterialInUse) {
  // eps_r = 0.5: waves at sqrt(2) c, so courant up to sqrt(0.5) = 0.7071.
  const std::string fast = edited("eps_r = 4.0", "eps_r = 0.5");
  EXPECT_THAT(refusal(fast).what(),
              HasSubstr("the effective Courant number there, courant/sqrt(eps_r*mu_r) = 1.40007"));
  EXPECT_NO_THROW(parse_deck_string(edited(fast, "steps = 100", "steps = 100\ncourant = 0.7")));
  // A material no object is made of never reaches the engine.
  EXPECT_NO_THROW(parse_deck_string(edited(fast, "material = \"glass\"", "material = \"pec\"")));
}

// The largest stable courant a message states passes when copied into the deck (it is cut, not
// rounded up: sqrt(0.3) = 0.5477225575 printed as 0.547723 was refused).
TEST(Deck, StatedCourantLimitPasses) {
  const std::string fast = edited(kValidDeck, "eps_r = 4.0", "eps_r = 0.3");
  const std::string message = refusal(fast).what();
  const std::string marker = "the largest stable courant for this deck is ";
  const std::string stated = message.substr(message.find(marker) + marker.size());
  EXPECT_EQ(stated.substr(0, 11), "0.547722557") << message;
  EXPECT_NO_THROW(parse_deck_string(edited(fast, "steps = 100", "steps = 100\ncourant = " + stated)));
}

TEST(Deck, AmplitudeLimitIsTheOneTheMessageStates) {
  const auto with_amplitude = [](const std::string& deck, double amplitude) {
    char number[32];
    std::snprintf(number, sizeof number, "%.17g", amplitude);
    return edited(deck, "frequency = 1e9", "frequency = 1e9\namplitude = " + std::string(number));
  };
  const auto limit_of = [&](const std::string& deck) {
    return number_after(refusal(with_amplitude(deck, 1e308)).what(), "the largest amplitude for this deck is ");
  };
  const std::string derivative = edited("waveform = \"gaussian\"", "waveform = \"gaussian_derivative\"");
  for (const std::string& deck : {kValidDeck, derivative}) {
    const double limit = limit_of(deck);
    EXPECT_NO_THROW(parse_deck_string(with_amplitude(deck, -0.999 * limit)));
    EXPECT_THROW(parse_deck_string(with_amplitude(deck, 1.001 * limit)), DeckError);
  }
  // The gaussian derivative peaks at 2 pi f e^(-1/2) = 3.8e9 for 1 GHz: a limit that much lower
  // (the messages give 6 digits).
  const double peak = 2 * std::numbers::pi * 1e9 * std::exp(-0.5);
  EXPECT_NEAR(limit_of(kValidDeck) / limit_of(derivative), peak, 1e-5 * peak);
}

TEST(Deck, AcceptsExtremeMaterialsThatFloat32Holds) {
  // eps_r = 1e30: an E curl coefficient of ~1e-28, far above float32's smallest normal 1.2e-38.
  EXPECT_NO_THROW(parse_deck_string(edited("eps_r = 4.0", "eps_r = 1e30")));
  // A material no object is made of is not checked.
  EXPECT_NO_THROW(
      parse_deck_string(edited(edited("eps_r = 4.0", "eps_r = 1e308"), "material = \"glass\"", "material = \"pec\"")));
}

TEST(Deck, HugeKeysAreShortenedInMessages) {
  const std::string key(1'000'000, 'k');
  const DeckError error = refusal(key + " = 1\n" + kValidDeck);
  EXPECT_EQ(error.key(), std::string(60, 'k') + "...");
  EXPECT_LT(std::string(error.what()).size(), 300u);
}

TEST(Deck, WarnsOfCpmlSettingsWithoutACpmlFace) {
  const Deck deck = parse_deck_string("[boundary.cpml]\ncells = 2\n" + kValidDeck);
  EXPECT_THAT(deck.warnings, ::testing::Contains(HasSubstr("no face is cpml")));
}

// ---- limits (io/deck.hpp, docs/decks.md "Limits") ------------------------------------------------

// `parts` keys "a" joined by dots.
std::string dotted(std::size_t parts) {
  std::string key = "a";
  for (std::size_t i = 1; i < parts; ++i) key += ".a";
  return key;
}

const std::string kNestedTooDeep = "tables, arrays and dotted keys nested more than 32 levels deep";

// Each of these, 100000 levels deep, overflowed the stack inside toml++, which builds and frees
// nested tables by recursion; they are refused before toml++ sees them.
TEST(DeckLimits, DeepNestingIsRefusedBeforeTheParser) {
  const std::string deep = dotted(100'000);
  std::string inline_tables;
  for (int i = 0; i < 100'000; ++i) inline_tables += "{ a = ";
  for (const std::string& nested : {"[" + deep + "]", "[[" + deep + "]]", deep + " = 1", "x = { " + deep + " = 1 }",
                                    "x = " + std::string(100'000, '['), "x = " + inline_tables}) {
    const DeckError error = refusal(kGridAndTime + nested + "\n");
    EXPECT_EQ(error.key(), "");
    EXPECT_THAT(error.what(), HasSubstr("<string>:7: " + kNestedTooDeep)) << nested.substr(0, 20);
  }
}

// The limit is exact, and the parts of a header, of a dotted key and the brackets around a value
// add up.
TEST(DeckLimits, NestingIsCountedAcrossHeadersKeysAndBrackets) {
  EXPECT_THAT(refusal("[" + dotted(32) + "]\n").what(), HasSubstr("a: unknown key"));
  EXPECT_THAT(refusal("[" + dotted(33) + "]\n").what(), HasSubstr(kNestedTooDeep));
  EXPECT_THAT(refusal("[" + dotted(30) + "]\nb.c = 1\n").what(), HasSubstr("a: unknown key"));
  EXPECT_THAT(refusal("[" + dotted(30) + "]\nb.c.d = 1\n").what(), HasSubstr(kNestedTooDeep));
  EXPECT_THAT(refusal("[" + dotted(30) + "]\nb = [[1]]\n").what(), HasSubstr(kNestedTooDeep));
  EXPECT_THAT(refusal("[" + dotted(30) + "]\nb = { c = 1 }\n").what(), HasSubstr("a: unknown key"));
  EXPECT_THAT(refusal("[" + dotted(30) + "]\nb = { c.d = 1 }\n").what(), HasSubstr(kNestedTooDeep));
  EXPECT_THAT(refusal("[[" + dotted(31) + "]]\n").what(), HasSubstr("a: unknown key"));
  EXPECT_THAT(refusal("[[" + dotted(32) + "]]\n").what(), HasSubstr(kNestedTooDeep));
}

// Dots and brackets in strings, comments and numbers are not nesting.
TEST(DeckLimits, StringsCommentsAndNumbersAreNotNesting) {
  const std::string many = std::string(100, '.') + std::string(100, '[') + std::string(100, '{');
  const std::string text = "title = \"\\\"" + many + "\"  # " + many + "\n# " + many + "\n" + kValidDeck +
                           "[output]\ndirectory = '''\n" + many + "'''\n";
  const Deck deck = parse_deck_string(text);
  EXPECT_EQ(deck.title, "\"" + many);
  EXPECT_EQ(deck.output_dir, many);
  EXPECT_EQ(parse_deck_string("title = \"\"\"\n" + many + "\\\n  \"\"\"\n" + kValidDeck).title, many);
  EXPECT_EQ(parse_deck_string("title = '" + many + "'\n" + kValidDeck).title, many);
}

// toml++ 3.3 reaches __builtin_unreachable when it asks whether such a character is whitespace; in
// strings and comments it is text.
TEST(DeckLimits, NonAsciiOutsideStringsAndCommentsIsRefusedBeforeTheParser) {
  const std::string letter = "\xd0\xb2";  // U+0432
  for (const std::string& text : {letter, "[" + letter + "]", "a = 1" + letter, "a = [1,\n " + letter + "]"}) {
    const DeckError error = refusal(text + "\n" + kValidDeck);
    EXPECT_EQ(error.key(), "");
    EXPECT_THAT(error.what(), HasSubstr(": a non-ASCII character outside a string or comment")) << text;
  }
  const Deck deck = parse_deck_string("title = \"" + letter + "\" # " + letter + "\n" + kValidDeck);
  EXPECT_EQ(deck.title, letter);
}

TEST(DeckLimits, DeckOfMoreThan16MiBIsRefused) {
  const auto padded = [](std::size_t size) {
    const std::string head = kValidDeck + "#";
    return head + std::string(size - head.size() - 1, 'x') + "\n";
  };
  EXPECT_NO_THROW(parse_deck_string(padded(kMaxDeckBytes)));
  const DeckError error = refusal(padded(kMaxDeckBytes + 1));
  EXPECT_EQ(error.key(), "");
  EXPECT_THAT(error.what(), HasSubstr("<string>: 16777217 bytes is more than the limit of 16777216 bytes (16 MiB)"));
  // A file is not read whole.
  const ScratchFile file(padded(kMaxDeckBytes + 1));
  EXPECT_THAT(refusal_of_file(file.path()), HasSubstr("deck.toml': larger than the limit of 16777216 bytes"));
}

// Each [[...]] array is counted before its first entry is read.
TEST(DeckLimits, EntriesOfEachArrayAreLimited) {
  const std::vector<std::pair<std::string, std::size_t>> limits = {{"material", kMaxMaterials},
                                                                   {"geometry", kMaxGeometryObjects},
                                                                   {"source", kMaxSources},
                                                                   {"probe", kMaxProbes},
                                                                   {"snapshot", kMaxSnapshots}};
  for (const auto& [kind, most] : limits) {
    const auto entries = [&](std::size_t count) {
      std::string text = kGridAndTime;
      for (std::size_t i = 0; i < count; ++i) text += "[[" + kind + "]]\n";
      return text;
    };
    EXPECT_THAT(refusal(entries(most)).key(), ::testing::StartsWith(kind + "[0]."));
    const DeckError error = refusal(entries(most + 1));
    EXPECT_EQ(error.key(), kind);
    EXPECT_THAT(error.what(), HasSubstr(std::to_string(most + 1) + " [[" + kind +
                                        "]] entries are more than the limit of " + std::to_string(most)));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Deck, DeckErrorTest,
    ::testing::Values(
        // syntax and structure
        ErrorCase{"SyntaxError", edited("steps = 100", "steps = = 100"), "", "case.toml:6:"},
        ErrorCase{"UnknownTopLevelKey", "colour = \"red\"\n" + kValidDeck, "colour", "unknown key"},
        ErrorCase{"UnknownNestedKey", edited("steps = 100", "steps = 100\nstepz = 3"), "time.stepz", "unknown key"},
        ErrorCase{"MisspeltKeyInArrayEntry", kValidDeck + kSecondSource, "source[1].frequncy",
                  "unknown key (did you mean 'frequency'?)"},
        ErrorCase{"UnknownKeyInInlineTable", edited("position = 0.05 }", "position = 0.05, offset = 1 }"),
                  "snapshot[0].plane.offset", "unknown key"},
        ErrorCase{"WrongType", edited("cells = [10, 10, 10]", "cells = \"100\""), "grid.cells",
                  "expected an array of 3 integers, got a string"},
        ErrorCase{"FloatWhereIntegerExpected", edited("steps = 100", "steps = 100.0"), "time.steps",
                  "expected an integer, got a float"},
        ErrorCase{"TableWhereArrayOfTablesExpected", kGridAndTime + "[material]\nname = \"x\"\n", "material",
                  "expected an array of tables"},
        ErrorCase{"NulInAString", kValidDeck + "[output]\ndirectory = \"a\\u0000b\"\n", "output.directory",
                  "must not contain a NUL character"},
        ErrorCase{"NotUtf8", "title = \"a\xff\"\n" + kValidDeck, "",
                  "case.toml:1:10: TOML syntax error: Encountered invalid utf-8"},
        ErrorCase{"ControlCharacterInTitle", "title = \"a\\tb\"\n" + kValidDeck, "title",
                  "must not contain control characters (byte 1 is 9)"},
        ErrorCase{"EscapeSequenceInTitle", "title = \"\\u001b[2J\"\n" + kValidDeck, "title",
                  "must not contain control characters (byte 0 is 27)"},
        ErrorCase{"TitleBeyondTheLimit", "title = \"" + std::string(1025, 't') + "\"\n" + kValidDeck, "title",
                  "1025 bytes is more than the limit of 1024"},
        ErrorCase{"NewlineInOutputDirectory", kValidDeck + "[output]\ndirectory = \"a\\nb\"\n", "output.directory",
                  "must not contain control characters (byte 1 is 10)"},
        ErrorCase{"OutputDirectoryBeyondTheLimit",
                  kValidDeck + "[output]\ndirectory = \"" + std::string(4096, 'd') + "\"\n", "output.directory",
                  "4096 bytes is more than the limit of 4095"},
        ErrorCase{"NameBeyondTheLimit", edited("name = \"rx\"", "name = \"" + std::string(65, 'r') + "\""),
                  "probe[0].name", "is 65 characters long; a name has at most 64"},
        ErrorCase{"NameWithASlash", edited("name = \"ez_mid\"", "name = \"ez/mid\""), "snapshot[0].name",
                  "'ez/mid' is not a valid name"},
        ErrorCase{"LongUnknownKey", std::string(100, 'k') + " = 1\n" + kValidDeck, std::string(60, 'k') + "...",
                  "unknown key"},
        ErrorCase{"NonFiniteNumber", edited("cell_size = [0.01, 0.01, 0.01]", "cell_size = [inf, 0.01, 0.01]"),
                  "grid.cell_size[0]", "finite"},
        // grid
        ErrorCase{"MissingGridCells", edited("cells = [10, 10, 10]\n", ""), "grid.cells", "missing required key"},
        ErrorCase{"CellsWrongLength", edited("cells = [10, 10, 10]", "cells = [10, 10]"), "grid.cells",
                  "exactly 3 entries"},
        ErrorCase{"ZeroCells", edited("cells = [10, 10, 10]", "cells = [10, 0, 10]"), "grid.cells[1]", "must be >= 1"},
        ErrorCase{"NegativeCellSize", edited("cell_size = [0.01, 0.01, 0.01]", "cell_size = [0.01, -0.01, 0.01]"),
                  "grid.cell_size[1]", "must be > 0"},
        ErrorCase{"CellSizesGiveZeroTimeStep",
                  edited("cell_size = [0.01, 0.01, 0.01]", "cell_size = [1e-300, 1e-300, 1e-300]"), "grid.cell_size",
                  "[1e-300, 1e-300, 1e-300] m give the CFL time step dt_cfl = 0 s, which is not a usable time step"},
        ErrorCase{"CellSizesGiveInfiniteTimeStep",
                  edited("cell_size = [0.01, 0.01, 0.01]", "cell_size = [1e300, 1e300, 1e300]"), "grid.cell_size",
                  "dt_cfl = inf s, which is not a usable time step"},
        // dz/dx = 1e42: free space's dt/(eps0 dz) = 2.6e-40, below float32's smallest normal.
        ErrorCase{"CellSizesBeyondFloat32", edited("cell_size = [0.01, 0.01, 0.01]", "cell_size = [0.01, 0.01, 1e40]"),
                  "grid.cell_size", "give free space the E curl coefficient dt/(eps (1 + l) dz) = 2.6"},
        ErrorCase{"AbsurdGridSize", edited("cells = [10, 10, 10]", "cells = [10000000, 10000000, 10000000]"),
                  "grid.cells", "limit of 2^40"},
        // time
        ErrorCase{"StepsAndDuration", edited("steps = 100", "steps = 100\nduration = 1e-9"), "time", "not both"},
        ErrorCase{"NeitherStepsNorDuration", edited("steps = 100", "courant = 0.5"), "time.steps", "time.duration"},
        ErrorCase{"ZeroSteps", edited("steps = 100", "steps = 0"), "time.steps", "must be in [1, 1e9]"},
        ErrorCase{"CourantAboveCfl", edited("steps = 100", "steps = 100\ncourant = 1.2"), "time.courant",
                  "the Yee scheme is unstable above the CFL limit"},
        ErrorCase{"CourantGivesSubnormalTimeStep", edited("steps = 100", "steps = 100\ncourant = 1e-310"),
                  "time.courant", "1e-310 gives dt = 1.92686e-321 s, which is not a usable time step"},
        ErrorCase{"MaterialFasterThanLight", edited("eps_r = 4.0", "eps_r = 0.5"), "time.courant",
                  "0.99 is unstable in material[0] ('glass', eps_r = 0.5, mu_r = 1), where waves travel at "
                  "c/sqrt(eps_r*mu_r) = 1.41421 c"},
        ErrorCase{"MagneticMaterialFasterThanLight", edited("sigma = 0.0", "sigma = 0.0\nmu_r = 0.2"), "time.courant",
                  "the largest stable courant for this deck is 0.894427"},
        ErrorCase{"ZeroCourant", edited("steps = 100", "steps = 100\ncourant = 0"), "time.courant",
                  "must be in (0, 1]"},
        // boundary
        ErrorCase{"CpmlZeroCells", kCpml + "cells = 0\n" + kValidDeck, "boundary.cpml.cells", "must be in [1, 1024]"},
        // 2^62 cells: 2 slabs overflowed Index in the thickness check; 2^37 on a long grid made the
        // coefficient check loop 2^38 times.
        ErrorCase{"CpmlCellsBeyondTheLimit", kCpml + "cells = 4611686018427387904\n" + kValidDeck,
                  "boundary.cpml.cells", "must be in [1, 1024] (usually 8 to 20), got 4611686018427387904"},
        ErrorCase{"CpmlThickerThanTheGrid", kCpml + "cells = 4\n" + kValidDeck, "boundary.cpml.cells",
                  "2 CPML slabs of 4 cells leave 2 of the 10 cells along x; at least 4 interior cells"},
        ErrorCase{"CpmlDefaultThicknessTooThick", "[boundary]\nz_max = \"cpml\"\n" + kValidDeck, "boundary.cpml.cells",
                  "1 CPML slab of 10 cells leave 0 of the 10 cells along z"},
        ErrorCase{"CpmlNegativeSigma", kCpml + "cells = 2\nsigma_max = -1\n" + kValidDeck, "boundary.cpml.sigma_max",
                  "must be >= 0"},
        ErrorCase{"CpmlNegativeSigmaOfOneAxis", kCpml + "cells = 2\nsigma_max = [1, -1, 1]\n" + kValidDeck,
                  "boundary.cpml.sigma_max[1]", "must be >= 0"},
        ErrorCase{"CpmlNegativeAlpha", kCpml + "cells = 2\nalpha_max = -0.1\n" + kValidDeck, "boundary.cpml.alpha_max",
                  "must be >= 0"},
        ErrorCase{"CpmlKappaBelowOne", kCpml + "cells = 2\nkappa_max = 0.5\n" + kValidDeck, "boundary.cpml.kappa_max",
                  "must be >= 1"},
        ErrorCase{"CpmlHugeKappa", kCpml + "cells = 2\nkappa_max = 1e308\n" + kValidDeck, "boundary.cpml.kappa_max",
                  "1e+308 makes the CPML coefficients at depth 1 along x non-finite"},
        ErrorCase{"CpmlHugeGrading",
                  kCpml + "cells = 2\ngrading = 1e308\n[grid]\ncells = [10, 10, 10]\ncell_size = [1e-3, 1e-3, 1e-3]\n"
                          "[time]\nsteps = 10\n",
                  "boundary.cpml.grading", "gives the default sigma_max = 0.8 (grading + 1)/(eta0 d) = inf S/m"},
        ErrorCase{"CpmlUnknownKey", kCpml + "cels = 2\n" + kValidDeck, "boundary.cpml.cels", "did you mean 'cells'"},
        ErrorCase{"SourceInsideCpml",
                  kCpml + "cells = 3\n" + edited("position = [0.05, 0.05, 0.05]", "position = [0.02, 0.05, 0.05]"),
                  "source[0].position", "lies inside the x_min CPML slab (3 cells"},
        ErrorCase{"SourceComponentInsideUpperCpml",
                  kCpml + "cells = 3\n" + edited("position = [0.05, 0.05, 0.05]", "position = [0.05, 0.05, 0.07]"),
                  "source[0].position", "lies inside the z_max CPML slab"},
        ErrorCase{"UnknownBoundaryKind", "[boundary]\nall = \"mirror\"\n" + kValidDeck, "boundary.all",
                  "unknown boundary kind 'mirror'"},
        // materials and geometry
        ErrorCase{"DuplicateMaterialName", kValidDeck + "[[material]]\nname = \"glass\"\n", "material[1].name",
                  "duplicate material name 'glass'"},
        ErrorCase{"MaterialNamedPec", kValidDeck + "[[material]]\nname = \"pec\"\n", "material[1].name",
                  "built-in material"},
        ErrorCase{"InvalidMaterialName", kValidDeck + "[[material]]\nname = \"my glass\"\n", "material[1].name",
                  "not a valid name"},
        ErrorCase{"NegativeSigma", edited("sigma = 0.0", "sigma = -1"), "material[0].sigma", "must be >= 0"},
        ErrorCase{"ZeroPermittivity", edited("eps_r = 4.0", "eps_r = 0"), "material[0].eps_r", "must be > 0"},
        ErrorCase{"PermittivityBeyondFloat32", edited("eps_r = 4.0", "eps_r = 1e308"), "material[0]",
                  "'glass' (eps_r = 1e+308, sigma = 0, mu_r = 1) has the E curl coefficient"},
        ErrorCase{"ConductivityBeyondFloat32", edited("sigma = 0.0", "sigma = 1e300"), "material[0]",
                  "the field there would never change, a silent PEC"},
        ErrorCase{"UnknownMaterialInGeometry", edited("material = \"glass\"", "material = \"gold\""),
                  "geometry[0].material", "unknown material 'gold'"},
        ErrorCase{"BoxOutsideGrid", edited("upper = [0.04, 0.04, 0.04]", "upper = [0.04, 0.2, 0.04]"),
                  "geometry[0].upper", "y = 0.2 m is outside the grid"},
        ErrorCase{"BoxLowerAboveUpper", edited("upper = [0.04, 0.04, 0.04]", "upper = [0.04, 0.04, 0.01]"),
                  "geometry[0].upper", "upper must be greater than lower"},
        ErrorCase{"UnknownShape", edited("[[geometry]]", "[[geometry]]\nshape = \"cone\""), "geometry[0].shape",
                  "unknown shape 'cone' (expected one of: box, sphere, cylinder)"},
        ErrorCase{"BoxWithRadius", edited("upper = [0.04, 0.04, 0.04]", "upper = [0.04, 0.04, 0.04]\nradius = 1"),
                  "geometry[0].radius", "unknown key for a box (a box takes: shape, material, lower, upper)"},
        ErrorCase{"SphereWithLower", sphere_edited("radius = 0.02", "radius = 0.02\nlower = [0, 0, 0]"),
                  "geometry[1].lower", "unknown key for a sphere (a sphere takes: shape, material, centre, radius)"},
        ErrorCase{"SphereMisspeltRadius", sphere_edited("radius = 0.02", "raduis = 0.02"), "geometry[1].raduis",
                  "unknown key (did you mean 'radius'?)"},
        ErrorCase{"SphereMissingCentre", sphere_edited("centre = [0.06, 0.05, 0.04]\n", ""), "geometry[1].centre",
                  "missing required key"},
        ErrorCase{"SphereMissingRadius", sphere_edited("radius = 0.02\n", ""), "geometry[1].radius",
                  "missing required key"},
        ErrorCase{"SphereZeroRadius", sphere_edited("radius = 0.02", "radius = 0"), "geometry[1].radius",
                  "must be > 0"},
        ErrorCase{"SphereNegativeRadius", sphere_edited("radius = 0.02", "radius = -0.02"), "geometry[1].radius",
                  "must be > 0"},
        ErrorCase{"SphereNonFiniteCentre", sphere_edited("centre = [0.06, 0.05, 0.04]", "centre = [0.06, nan, 0.04]"),
                  "geometry[1].centre[1]", "finite"},
        ErrorCase{"SphereCentreWrongLength", sphere_edited("centre = [0.06, 0.05, 0.04]", "centre = [0.06, 0.05]"),
                  "geometry[1].centre", "exactly 3 entries"},
        // Beyond the x_max-y_max edge: its bounding box reaches into the grid, the sphere does not.
        ErrorCase{
            "SphereOutsideGrid",
            sphere_edited("centre = [0.06, 0.05, 0.04]\nradius = 0.02", "centre = [0.12, 0.12, 0.05]\nradius = 0.025"),
            "geometry[1]", "the sphere lies outside the grid, which spans [0, 0.1] x [0, 0.1] x [0, 0.1] m"},
        ErrorCase{"CylinderMissingAxis", cylinder_edited("axis = \"y\"\n", ""), "geometry[1].axis",
                  "missing required key"},
        ErrorCase{"CylinderBadAxis", cylinder_edited("axis = \"y\"", "axis = \"r\""), "geometry[1].axis",
                  "'r' is not one of: x, y, z"},
        ErrorCase{"CylinderMissingLower", cylinder_edited("lower = 0.02\n", ""), "geometry[1].lower",
                  "missing required key"},
        ErrorCase{"CylinderMissingRadius", cylinder_edited("radius = 0.01\n", ""), "geometry[1].radius",
                  "missing required key"},
        ErrorCase{"CylinderNegativeRadius", cylinder_edited("radius = 0.01", "radius = -0.01"), "geometry[1].radius",
                  "must be > 0"},
        ErrorCase{"CylinderNonFiniteUpper", cylinder_edited("upper = 0.08", "upper = inf"), "geometry[1].upper",
                  "finite"},
        ErrorCase{"CylinderLowerAsBoxCorner", cylinder_edited("lower = 0.02", "lower = [0, 0, 0]"), "geometry[1].lower",
                  "expected a number, got an array"},
        ErrorCase{"CylinderLowerAboveUpper", cylinder_edited("upper = 0.08", "upper = 0.01"), "geometry[1].upper",
                  "upper must be greater than lower (the extent along the y axis); lower = 0.02, upper = 0.01"},
        ErrorCase{"CylinderWithCorner", cylinder_edited("radius = 0.01", "radius = 0.01\ncorner = 1"),
                  "geometry[1].corner", "unknown key"},
        ErrorCase{"CylinderBeyondTheGridAlongItsAxis",
                  cylinder_edited("lower = 0.02\nupper = 0.08", "lower = 0.11\nupper = 0.2"), "geometry[1]",
                  "the cylinder lies outside the grid"},
        // Beyond the x_max-z_max edge, across its axis.
        ErrorCase{
            "CylinderBesideTheGrid",
            cylinder_edited("centre = [0.03, 0.5, 0.07]\nradius = 0.01", "centre = [0.12, 0, 0.12]\nradius = 0.025"),
            "geometry[1]", "the cylinder lies outside the grid"},
        // sources
        ErrorCase{"UnknownWaveform", edited("waveform = \"gaussian\"", "waveform = \"sinc\""), "source[0].waveform",
                  "'sinc' is not one of: gaussian, gaussian_derivative, ricker, ramped_sine"},
        ErrorCase{"BadPolarisation", edited("polarisation = \"z\"", "polarisation = \"r\""), "source[0].polarisation",
                  "'r' is not one of: x, y, z"},
        ErrorCase{"SourceOutsideGrid", edited("position = [0.05, 0.05, 0.05]", "position = [0.05, 0.05, -0.01]"),
                  "source[0].position", "z = -0.01 m is outside the grid"},
        ErrorCase{"SourceOnBoundaryFace", edited("position = [0.05, 0.05, 0.05]", "position = [0.1, 0.05, 0.05]"),
                  "source[0].position", "on the x_max boundary face, where Ez is tangential"},
        ErrorCase{"SourceSnapsOntoBoundaryFace",
                  edited("position = [0.05, 0.05, 0.05]", "position = [0.05, 0.004, 0.05]"), "source[0].position",
                  "snaps to node 0 on the y_min boundary face"},
        ErrorCase{"ZeroFrequency", edited("frequency = 1e9", "frequency = 0"), "source[0].frequency", "must be > 0"},
        ErrorCase{"NegativeFrequency", edited("frequency = 1e9", "frequency = -1e9"), "source[0].frequency",
                  "must be > 0"},
        ErrorCase{"FrequencyAboveNyquist", edited("frequency = 1e9", "frequency = 1e308"), "source[0].frequency",
                  "1e+308 Hz is not below the Nyquist frequency 1/(2 dt) = 2.6"},
        ErrorCase{"SubnormalFrequency", edited("frequency = 1e9", "frequency = 1e-310"), "source[0].frequency",
                  "1e-310 Hz is a subnormal double"},
        ErrorCase{"AmplitudeBeyondFloat32", edited("frequency = 1e9", "frequency = 1e9\namplitude = 1e308"),
                  "source[0].amplitude", "A would add up to inf V/m to Ez in one step, beyond the float32 range"},
        ErrorCase{"MissingFrequency", edited("frequency = 1e9\n", ""), "source[0].frequency", "missing required key"},
        // probes
        ErrorCase{"ProbeOutsideGrid", edited("position = [0.07, 0.05, 0.05]", "position = [0.11, 0.05, 0.05]"),
                  "probe[0].position", "x = 0.11 m is outside the grid"},
        ErrorCase{"UnknownComponent", edited("components = [\"Ez\", \"Hy\"]", "components = [\"Ez\", \"Ew\"]"),
                  "probe[0].components[1]", "unknown component 'Ew'"},
        ErrorCase{"DuplicateComponent", edited("components = [\"Ez\", \"Hy\"]", "components = [\"Ez\", \"Ez\"]"),
                  "probe[0].components[1]", "listed twice"},
        ErrorCase{"DuplicateProbeName", kValidDeck + "[[probe]]\nname = \"rx\"\nposition = [0, 0, 0]\n",
                  "probe[1].name", "duplicate probe name 'rx'"},
        // snapshots
        ErrorCase{"SnapshotEveryZero", edited("every = 10", "every = 0"), "snapshot[0].every", "must be in [1, 1e9]"},
        ErrorCase{"SnapshotEveryBeyondTheLimit", edited("every = 10", "every = 1000000001"), "snapshot[0].every",
                  "must be in [1, 1e9]"},
        ErrorCase{"SnapshotPlaneOutsideGrid", edited("position = 0.05 }", "position = 0.5 }"),
                  "snapshot[0].plane.position", "z = 0.5 m is outside the grid"},
        ErrorCase{"BadPlaneAxis", edited("axis = \"z\"", "axis = \"w\""), "snapshot[0].plane.axis",
                  "'w' is not one of: x, y, z"},
        ErrorCase{"SnapshotNamedLikeTheProbeFile", edited("name = \"ez_mid\"", "name = \"probes\""), "snapshot[0].name",
                  "'probes' is reserved (the probe file probes.h5)"},
        ErrorCase{"MissingSnapshotName", edited("name = \"ez_mid\"\n", ""), "snapshot[0].name",
                  "missing required key"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return info.param.name; });

}  // namespace
}  // namespace yeex
