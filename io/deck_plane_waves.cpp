// [[plane_wave]]: total-field/scattered-field plane waves (io/deck_sections.hpp). What needs the
// painted model (the box surface's material) is checked when the model is built
// (src/solver/tfsf_setup.cpp).
#include <cmath>
#include <numbers>

#include "io/deck_sections.hpp"

namespace yeex::deck_detail {
namespace {

// Direction and polarisation are normalised; what is left of their dot product after that may be
// rounding of the user's numbers (cos 60 deg written as 0.5000000001), not a tilt.
constexpr double kPerpendicularSlack = 1e-6;

Vec3 unit_vector(const Vec3& v, const std::string& path) {
  const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!std::isfinite(norm) || !(norm > 0))
    throw DeckError(path, format_vector(v) + " has no direction: give a non-zero, finite vector");
  return {v[0] / norm, v[1] / norm, v[2] / norm};
}

// The box snaps to nodes; every node the method corrects (the box's surface and the nodes half a
// cell outside it) must be swept and lie outside the absorber: along each axis the box's nodes
// a < b must satisfy 1 <= a, b <= n - 1, and with a CPML face N cells thick N + 1 <= a, or
// b <= n - N - 1 at the far face.
void check_box(const PlaneWave& wave, const Deck& deck, const TableReader& entry) {
  const auto cells = deck.grid.as_array();
  for (int axis = 0; axis < 3; ++axis) {
    const std::string along = std::string(kAxisNames[axis]);
    const double d = deck.cell_size[axis];
    const Index a = std::llround(wave.lower[axis] / d), b = std::llround(wave.upper[axis] / d);
    if (!(a < b))
      throw DeckError(entry.key_path("upper"), "the box must span at least one cell along " + along +
                                                   ": lower = " + format_number(wave.lower[axis]) + " m and upper = " +
                                                   format_number(wave.upper[axis]) + " m snap to nodes " +
                                                   std::to_string(a) + " and " + std::to_string(b));
    const Index n = deck.cpml.cells;
    const Index low = deck.boundary[2 * axis] == BoundaryKind::cpml ? n + 1 : 1;
    const Index high = cells[axis] - (deck.boundary[2 * axis + 1] == BoundaryKind::cpml ? n + 1 : 1);
    const auto refuse = [&](const char* key, Index node, bool lower_face) {
      const bool cpml = deck.boundary[2 * axis + (lower_face ? 0 : 1)] == BoundaryKind::cpml;
      throw DeckError(
          entry.key_path(key),
          along + " = " + format_number(lower_face ? wave.lower[axis] : wave.upper[axis]) + " m snaps to node " +
              std::to_string(node) + "; the total-field box must lie strictly " +
              (cpml ? "inside the interior, clear of the " + std::string(kFaceNames[2 * axis + (lower_face ? 0 : 1)]) +
                          " CPML slab (" + std::to_string(n) + " cells)"
                    : std::string("inside the grid")) +
              ": node " + (lower_face ? ">= " + std::to_string(low) : "<= " + std::to_string(high)) + ", i.e. " +
              along + (lower_face ? " >= " : " <= ") + format_number((lower_face ? low : high) * d) + " m");
    };
    if (a < low) refuse("lower", a, true);
    if (b > high) refuse("upper", b, false);
  }
}

}  // namespace

void parse_plane_waves(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables(
      "plane_wave", {"name", "direction", "polarisation", "waveform", "amplitude", "frequency", "lower", "upper"},
      kMaxPlaneWaves);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const TableReader& entry = entries[i];
    PlaneWave wave;
    wave.name = entry.get_or("name", "plane_wave" + std::to_string(i));
    check_name(wave.name, entry.key_path("name"), deck.plane_waves, "plane_wave");
    wave.direction = unit_vector(entry.require<Vec3>("direction"), entry.key_path("direction"));
    wave.polarisation = unit_vector(entry.require<Vec3>("polarisation"), entry.key_path("polarisation"));
    const double dot = wave.direction[0] * wave.polarisation[0] + wave.direction[1] * wave.polarisation[1] +
                       wave.direction[2] * wave.polarisation[2];
    if (std::abs(dot) > kPerpendicularSlack)
      throw DeckError(entry.key_path("polarisation"),
                      "E of a plane wave is perpendicular to its direction; the polarisation " +
                          format_vector(entry.require<Vec3>("polarisation")) + " makes an angle of " +
                          format_number(std::acos(std::clamp(dot, -1.0, 1.0)) * 180 / std::numbers::pi) +
                          " degrees with the direction " + format_vector(entry.require<Vec3>("direction")));
    wave.waveform = static_cast<WaveformKind>(required_choice(entry, "waveform", kWaveformNames));
    wave.amplitude = entry.get_or("amplitude", 1.0);
    wave.frequency = positive(entry.require<double>("frequency"), entry.key_path("frequency"));
    if (!std::isnormal(wave.frequency))
      throw DeckError(entry.key_path("frequency"), format_number(wave.frequency) +
                                                       " Hz is a subnormal double, which makes the waveform's delay "
                                                       "1/f infinite");
    const double nyquist = 1 / (2 * deck.dt());
    if (!(wave.frequency < nyquist))
      throw DeckError(entry.key_path("frequency"),
                      format_exact(wave.frequency) + " Hz is not below the Nyquist frequency 1/(2 dt) = " +
                          format_exact(nyquist) + " Hz of the time step dt = " + format_number(deck.dt()) + " s");
    // The incident field itself must be a float32 (the default precision) at its peak.
    const double peak = wave.waveform == WaveformKind::gaussian_derivative
                            ? 2 * std::numbers::pi * wave.frequency * std::exp(-0.5)
                            : 1.0;
    if (!std::isfinite(wave.amplitude) || std::abs(wave.amplitude) * peak > kFloatMax)
      throw DeckError(entry.key_path("amplitude"), format_number(wave.amplitude) + " gives an incident field of " +
                                                       format_number(std::abs(wave.amplitude) * peak) +
                                                       " V/m at its peak, beyond the float32 range (" +
                                                       format_number(kFloatMax) + ")");
    wave.lower = entry.require<Vec3>("lower");
    wave.upper = entry.require<Vec3>("upper");
    check_inside_grid(wave.lower, extent, entry.key_path("lower"));
    check_inside_grid(wave.upper, extent, entry.key_path("upper"));
    check_box(wave, deck, entry);
    deck.plane_waves.push_back(wave);
  }
}

}  // namespace yeex::deck_detail
