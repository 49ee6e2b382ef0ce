// [[source]], [[probe]], [[snapshot]] and [output], and the advice on a valid deck
// (io/deck_sections.hpp).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>

#include "io/deck_sections.hpp"
#include "io/probe_writer.hpp"
#include "physics/constants.hpp"

namespace yeex::deck_detail {
namespace {

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
void check_source_amplitude(const Source& source, const Deck& deck, const std::vector<MaterialInUse>& in_use,
                            const std::string& path) {
  double per_ampere = 0;  // largest term per ampere (V/m per A)
  for (const MaterialInUse& made_of : in_use) {
    const double coefficient =
        source_coefficient(1.0, source.polarisation, made_of.material, deck.dt(), deck.cell_size);
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

// ---- advice on a valid deck ---------------------------------------------------------------------

// The Yee scheme's phase error grows as (cell / wavelength)^2: below about 10 cells per wavelength
// pulses visibly spread and lag.
constexpr double kFewestCellsPerWavelength = 10;

// The highest frequency a waveform puts real energy into: 3 f for the pulses (the gaussian's
// spectrum is down to about 1% there), f for the sine.
double highest_frequency(WaveformKind waveform, double frequency) {
  return waveform == WaveformKind::ramped_sine ? frequency : 3 * frequency;
}
double highest_frequency(const Source& source) { return highest_frequency(source.waveform, source.frequency); }

}  // namespace

void parse_sources(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables(
      "source", {"type", "name", "polarisation", "position", "waveform", "amplitude", "frequency"}, kMaxSources);
  const std::vector<MaterialInUse> in_use = materials_in_use(deck);
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
    check_source_amplitude(source, deck, in_use, entry.key_path("amplitude"));
    deck.sources.push_back(source);
  }
}

void parse_probes(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables("probe", {"name", "position", "components"}, kMaxProbes);
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
       root.array_of_tables("snapshot", {"name", "components", "every", "plane"}, kMaxSnapshots)) {
    Snapshot snapshot;
    snapshot.name = entry.require<std::string>("name");
    check_name(snapshot.name, entry.key_path("name"), deck.snapshots, "snapshot");
    // A snapshot writes NAME.h5 and NAME.xdmf next to run.json and the probe file.
    if (snapshot.name + ".h5" == kProbeFileName)
      throw DeckError(entry.key_path("name"),
                      in_quotes(snapshot.name) + " is reserved (the probe file " + std::string(kProbeFileName) + ")");
    snapshot.components = parse_components(entry);
    snapshot.every = entry.require<Index>("every");
    if (snapshot.every < 1 || snapshot.every > kMaxSteps)
      throw DeckError(entry.key_path("every"),
                      "must be in [1, 1e9] (steps between snapshots), got " + std::to_string(snapshot.every));
    if (const auto plane = entry.table("plane", {"axis", "position"})) {
      snapshot.plane_axis = required_choice(*plane, "axis", kAxisNames);
      snapshot.plane_position = plane->require<double>("position");
      check_inside_axis(snapshot.plane_position, *snapshot.plane_axis, extent, plane->key_path("position"));
    }
    deck.snapshots.push_back(snapshot);
  }
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
  // Plane waves: in the slowest material, as a source's (the wave meets every object in its box).
  for (std::size_t i = 0; i < deck.plane_waves.size(); ++i) {
    const PlaneWave& wave = deck.plane_waves[i];
    const double highest = highest_frequency(wave.waveform, wave.frequency);
    const double cells = kSpeedOfLight / std::sqrt(slowest) / highest / largest_cell;
    if (cells >= kFewestCellsPerWavelength) continue;
    char count[32];
    std::snprintf(count, sizeof count, "%.1f", cells);
    warnings.push_back("warning: " + indexed("plane_wave", i) + ".frequency: " + format_number(wave.frequency) +
                       " Hz (content up to " + format_number(highest) + " Hz) gives " + count +
                       " cells per wavelength in the slowest material (eps_r*mu_r = " + format_number(slowest) +
                       "); fewer than ~10 cells per wavelength means visible numerical dispersion and TF/SF leakage");
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
  check_text(deck.output_dir, output->key_path("directory"), kMaxPathBytes);
}

}  // namespace yeex::deck_detail
