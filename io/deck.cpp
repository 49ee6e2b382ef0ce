// Parsing of the TOML input deck (every key is documented in docs/decks.md): the entry points of
// io/deck.hpp, the resolved deck for run.json and the built-in deck.
//
// Tables are read in the order of the format (grid, time, boundary, materials, geometry, sources,
// plane waves, probes, snapshots, output; io/deck_sections.hpp says which file reads which) and the first
// problem is thrown; the resolution warnings are worked out last, from the complete deck.
#include "io/deck.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "io/deck_sections.hpp"

namespace yeex {

using namespace deck_detail;

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
      {"plane_wave", json::array()},
      {"probe", json::array()},
      {"snapshot", json::array()},
      {"output", {{"directory", output_dir}}},
  };
  for (const Material& m : materials) {
    json material = {{"name", m.name}, {"eps_r", m.eps_r}, {"sigma", m.sigma}, {"mu_r", m.mu_r}};
    for (const Pole& p : m.poles) {
      static constexpr const char* kinds[] = {"debye", "drude", "lorentz"};
      json pole = {{"type", kinds[static_cast<int>(p.kind)]}};
      if (p.kind != PoleKind::drude) pole["delta_eps"] = p.delta_eps;
      if (p.kind == PoleKind::debye) pole["tau"] = p.tau;
      if (p.kind != PoleKind::debye) pole["omega"] = p.omega, pole["gamma"] = p.gamma;
      material["poles"].push_back(pole);
    }
    out["material"].push_back(material);
  }
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
  for (const PlaneWave& w : plane_waves)
    out["plane_wave"].push_back({{"name", w.name},
                                 {"direction", w.direction},
                                 {"polarisation", w.polarisation},
                                 {"waveform", kWaveformNames[static_cast<int>(w.waveform)]},
                                 {"amplitude", w.amplitude},
                                 {"frequency", w.frequency},
                                 {"lower", w.lower},
                                 {"upper", w.upper}});
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
  check_deck_text(text, origin);
  toml::table document;
  try {
    document = toml::parse(text, origin);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    throw DeckError("", origin + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
                            ": TOML syntax error: " + std::string(error.description()));
  }

  const TableReader root(document, "",
                         {"title", "grid", "time", "boundary", "material", "geometry", "source", "plane_wave", "probe",
                          "snapshot", "output"});
  Deck deck;
  deck.title = check_text(root.get_or("title", deck.title), "title", kMaxTitleBytes);
  parse_grid(root, deck);
  parse_time(root, deck);
  parse_boundary(root, deck);
  parse_materials(root, deck);
  parse_geometry(root, deck);
  check_stability(deck);
  check_update_coefficients(deck);
  check_poles(deck);
  parse_sources(root, deck);
  parse_plane_waves(root, deck);
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
  std::size_t got = 0;  // a file beyond the limit is read one buffer past it, not whole
  while (text.size() <= kMaxDeckBytes && (got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    text.append(buffer, got);
  if (std::ferror(file.get())) refuse(std::strerror(errno));
  if (text.size() > kMaxDeckBytes)
    refuse("larger than the limit of " + std::to_string(kMaxDeckBytes) + " bytes (16 MiB) for a deck");
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

}  // namespace yeex
