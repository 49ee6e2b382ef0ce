// The input deck: a TOML file describing one model, parsed and validated into a Deck.
//
// Every problem is reported as a DeckError naming the key (e.g. "source[2].frequency") and what
// is wrong with it; the CLI turns it into exit code 2 before anything is written. What is legal
// but probably unwise goes into Deck::warnings, which the CLI prints before running.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "decomposition/grid.hpp"
#include "physics/cpml.hpp"
#include "physics/material.hpp"

namespace yeex {

class DeckError : public std::runtime_error {
 public:
  DeckError(std::string key, const std::string& problem)
      : std::runtime_error(key.empty() ? problem : key + ": " + problem), key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

using Vec3 = std::array<double, 3>;

enum class ShapeKind { box, sphere, cylinder };

// One object of [[geometry]]. Which fields describe it depends on the shape; the others keep
// their defaults and are neither read from the deck nor written to run.json.
struct GeometryObject {
  ShapeKind shape = ShapeKind::box;
  std::string material;                       // name of a Material (or the built-ins "free_space", "pec")
  Vec3 lower{}, upper{};                      // box: lowest and highest corner (m)
  Vec3 centre{};                              // sphere: centre; cylinder: a point on its axis (m)
  double radius = 0.0;                        // sphere, cylinder (m)
  int axis = 2;                               // cylinder: 0,1,2 = x,y,z
  double axis_lower = 0.0, axis_upper = 0.0;  // cylinder: its extent along `axis` (m)
};

enum class WaveformKind { gaussian, gaussian_derivative, ricker, ramped_sine };

struct Source {
  std::string name;
  int polarisation = 2;  // 0,1,2 = x,y,z
  Vec3 position{};       // metres
  WaveformKind waveform = WaveformKind::gaussian;
  double amplitude = 1.0;  // the dipole's current scale: A, or A s for gaussian_derivative (docs/decks.md)
  double frequency = 1e9;  // Hz
};

// A plane wave ([[plane_wave]]) fed by the total-field/scattered-field method: inside the box
// [lower, upper] the fields are the total fields, outside it the scattered ones. Its incident field
// is amplitude * polarisation * W(t - direction . (r - r0) / v), r0 the box corner the wave reaches
// first, v the speed in the box surface's material (docs/decks.md, "Plane waves").
struct PlaneWave {
  std::string name;
  Vec3 direction{0, 0, 1};     // of propagation, a unit vector (the parser normalises it)
  Vec3 polarisation{1, 0, 0};  // of E, a unit vector perpendicular to direction (normalised)
  WaveformKind waveform = WaveformKind::gaussian;
  double amplitude = 1.0;  // V/m: E's peak for the dimensionless waveforms, V s/m for gaussian_derivative
  double frequency = 1e9;  // Hz
  Vec3 lower{}, upper{};   // the total-field box (m), snapped to nodes
};

struct Probe {
  std::string name;
  Vec3 position{};  // metres
  std::vector<Component> components;
};

struct Snapshot {
  std::string name;
  std::vector<Component> components;
  Index every = 1;                // steps between snapshots
  std::optional<int> plane_axis;  // unset: whole volume
  double plane_position = 0.0;    // metres along plane_axis
};

enum class BoundaryKind { pec, cpml };

// CpmlSettings ([boundary.cpml]) is physics/cpml.hpp.
// Interior cells a CPML axis must keep between its slabs (or between a slab and a PEC face).
inline constexpr Index kCpmlMinInteriorCells = 4;

// The most time steps a run may take (the deck's time.steps, yeex run --steps).
inline constexpr Index kMaxSteps = 1'000'000'000;

// Limits of a deck (docs/decks.md, "Limits"), all checked before anything runs. The first two are
// checked on the text, before the TOML parser sees it: toml++ builds and frees nested tables
// recursively, so a deck nested tens of thousands deep (one long dotted key is enough) would
// overflow the stack instead of being refused.
inline constexpr std::size_t kMaxDeckBytes = std::size_t{16} << 20;  // 16 MiB of text
inline constexpr int kMaxDeckNesting = 32;          // tables, arrays and parts of dotted keys, counted together
inline constexpr Index kMaxCells = Index{1} << 40;  // nx*ny*nz: ~1.1e12 cells, far beyond one node's memory
inline constexpr Index kMaxCpmlCells = 1024;        // boundary.cpml.cells
// Text that reaches the output files: the title (an HDF5 attribute, run.json, the summary line),
// names (HDF5 group and file names) and output.directory (a path).
inline constexpr std::size_t kMaxTitleBytes = 1024;
inline constexpr std::size_t kMaxNameBytes = 64;
inline constexpr std::size_t kMaxPathBytes = 4095;  // PATH_MAX less the terminating NUL
// Entries of the [[...]] arrays; materials: the model's limit (node classes are one byte each).
inline constexpr std::size_t kMaxMaterials = 248;
inline constexpr std::size_t kMaxPolesPerMaterial = 4;  // kernels/dispersion.hpp's kMaxPoles
inline constexpr std::size_t kMaxGeometryObjects = 65'536;
inline constexpr std::size_t kMaxSources = 1024;
// Each plane wave holds a table of its incident field, steps x its 1D grid (docs/limits.md).
inline constexpr std::size_t kMaxPlaneWaves = 16;
inline constexpr std::size_t kMaxProbes = 100'000;  // memory linear in them (docs/limits.md, "Probes")
inline constexpr std::size_t kMaxSnapshots = 256;

struct Deck {
  std::string title = "untitled";
  GridShape grid;
  Vec3 cell_size{};  // metres
  std::optional<Index> steps;
  std::optional<double> duration;          // seconds; exactly one of steps/duration is set
  double courant = 0.99;                   // fraction of the 3D CFL limit, in (0, 1]
  std::array<BoundaryKind, 6> boundary{};  // x_min, x_max, y_min, y_max, z_min, z_max
  CpmlSettings cpml;                       // used by the faces whose boundary is cpml
  std::vector<Material> materials;         // user materials (built-ins are implicit)
  std::vector<GeometryObject> geometry;    // painted in order: later objects win
  std::vector<Source> sources;
  std::vector<PlaneWave> plane_waves;
  std::vector<Probe> probes;
  std::vector<Snapshot> snapshots;
  std::string output_dir = "yeex-output";
  // Advice that does not stop the run (e.g. too few cells per wavelength), one line each, filled
  // by the parser; not part of the resolved deck (to_json).
  std::vector<std::string> warnings;

  // The time step implied by courant and the cell size (seconds).
  double dt() const;
  // Steps to run: `steps`, or ceil(duration / dt).
  Index step_count() const;
  // Whether any face is CPML, and sigma_max of the CPML slabs across axis 0,1,2 (resolved default).
  bool has_cpml() const;
  // Whether an object is made of a dispersive material (one with poles).
  bool has_dispersion() const;
  double cpml_sigma_max(int axis) const;
  // The resolved deck (all defaults filled in), for run.json.
  nlohmann::json to_json() const;
};

// Parses and validates; throws DeckError.
Deck parse_deck_string(const std::string& text, const std::string& origin = "<string>");
Deck parse_deck_file(const std::filesystem::path& path);
// The text of a deck file (MPI mode: rank 0 reads it and broadcasts it); throws DeckError.
std::string read_deck_file(const std::filesystem::path& path);

// The built-in problem of `yeex run` with no deck: a dipole in a PEC box with a dielectric block.
Deck default_deck();

// Finds a material by name, including the built-ins "free_space" and "pec".
std::optional<Material> find_material(const Deck& deck, const std::string& name);

}  // namespace yeex
