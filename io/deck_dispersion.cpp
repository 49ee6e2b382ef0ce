// The poles of a dispersive [[material]] (poles = [...]) or its Peplinski soil (peplinski = {...}),
// and their checks at the deck's time step (io/deck_sections.hpp).
#include <cmath>

#include "io/deck_sections.hpp"
#include "physics/dispersion.hpp"

namespace yeex::deck_detail {
namespace {

constexpr std::array<std::string_view, 3> kPoleKinds = {"debye", "drude", "lorentz"};

Pole parse_pole(const TableReader& entry) {
  Pole pole;
  pole.kind = static_cast<PoleKind>(required_choice(entry, "type", kPoleKinds));
  switch (pole.kind) {
    case PoleKind::debye:
      entry.allow_only({"type", "delta_eps", "tau"}, "a debye pole");
      pole.delta_eps = positive(entry.require<double>("delta_eps"), entry.key_path("delta_eps"));
      pole.tau = positive(entry.require<double>("tau"), entry.key_path("tau"));
      break;
    case PoleKind::drude:
      entry.allow_only({"type", "omega", "gamma"}, "a drude pole");
      pole.omega = positive(entry.require<double>("omega"), entry.key_path("omega"));
      pole.gamma = non_negative(entry.require<double>("gamma"), entry.key_path("gamma"));
      break;
    case PoleKind::lorentz:
      entry.allow_only({"type", "delta_eps", "omega", "gamma"}, "a lorentz pole");
      pole.delta_eps = positive(entry.require<double>("delta_eps"), entry.key_path("delta_eps"));
      pole.omega = positive(entry.require<double>("omega"), entry.key_path("omega"));
      pole.gamma = non_negative(entry.require<double>("gamma"), entry.key_path("gamma"));
      break;
  }
  return pole;
}

double fraction(const TableReader& soil, std::string_view key, bool open_at_zero) {
  const double value = soil.require<double>(key);
  if (!(value >= 0 && value <= 1) || (open_at_zero && value == 0))
    throw DeckError(soil.key_path(key),
                    format_number(value) + " is not a fraction in " + (open_at_zero ? "(0, 1]" : "[0, 1]"));
  return value;
}

}  // namespace

void parse_dispersion(const TableReader& entry, Material& material) {
  const bool has_poles = entry.has("poles"), has_soil = entry.has("peplinski");
  if (has_poles && has_soil)
    throw DeckError(entry.key_path("peplinski"), "a material takes poles or a peplinski soil, not both");
  if (has_soil) {
    for (const std::string_view key : {"eps_r", "sigma"})
      if (entry.has(key))
        throw DeckError(entry.key_path(key),
                        "a peplinski soil sets eps_r and sigma itself; remove " + std::string(key));
    const auto soil = entry.table("peplinski", {"sand", "clay", "bulk_density", "sand_density", "water"});
    PeplinskiSoil s;
    s.sand = fraction(*soil, "sand", false);
    s.clay = fraction(*soil, "clay", false);
    if (s.sand + s.clay > 1 + 1e-12)
      throw DeckError(soil->key_path("clay"),
                      "sand + clay = " + format_number(s.sand + s.clay) + " is more than the whole solid (1)");
    s.bulk_density = positive(soil->require<double>("bulk_density"), soil->key_path("bulk_density"));
    s.sand_density = positive(soil->require<double>("sand_density"), soil->key_path("sand_density"));
    if (!(s.bulk_density < s.sand_density))
      throw DeckError(soil->key_path("bulk_density"), format_number(s.bulk_density) +
                                                          " g/cm^3 must be below sand_density (" +
                                                          format_number(s.sand_density) + " g/cm^3): a soil has pores");
    s.water = fraction(*soil, "water", true);
    const double mu_r = material.mu_r;
    material = peplinski_material(s, material.name);
    material.mu_r = mu_r;
    if (!(material.eps_r > 0) || !(material.poles.front().delta_eps > 0) || !std::isfinite(material.sigma))
      throw DeckError(
          entry.key_path("peplinski"),
          "the Peplinski model gives eps_inf = " + format_number(material.eps_r) +
              " and delta_eps = " + format_number(material.poles.front().delta_eps) +
              " for this soil, outside its range (both must be positive): check the fractions and densities");
    return;
  }
  if (!has_poles) return;
  for (const TableReader& pole :
       entry.array_of_tables("poles", {"type", "delta_eps", "tau", "omega", "gamma"}, kMaxPolesPerMaterial))
    material.poles.push_back(parse_pole(pole));
  if (material.poles.empty()) throw DeckError(entry.key_path("poles"), "an empty list: leave poles out instead");
}

// Every pole of a material in use must be resolved by the time step, and the coefficients of its
// update must be normal float32 (a denormal one would freeze its state).
void check_poles(const Deck& deck) {
  const double dt = deck.dt();
  for (const auto& [material, path] : materials_in_use(deck)) {
    if (!material.dispersive()) continue;
    for (std::size_t p = 0; p < material.poles.size(); ++p) {
      const std::string where = path + ".poles[" + std::to_string(p) + "]";
      if (const std::string problem = pole_problem(material.poles[p], dt); !problem.empty())
        throw DeckError(where, in_quotes(material.name) + ": " + problem + "; use smaller cells (dt scales with them)");
    }
    const DispersiveUpdate update = dispersive_update(material, dt);
    for (std::size_t p = 0; p < update.poles.size(); ++p) {
      const PoleUpdate& u = update.poles[p];
      for (int r = 0; r < u.states; ++r)
        for (const double value : {u.a[r][0], u.a[r][1], u.h[r], u.u[r]}) {
          if (value == 0 || (std::abs(value) >= kFloatMin && std::abs(value) <= kFloatMax)) continue;
          throw DeckError(path + ".poles[" + std::to_string(p) + "]",
                          in_quotes(material.name) + ": a coefficient of the pole's update is " + format_number(value) +
                              ", which float32 cannot hold (0 or within [" + format_number(kFloatMin) + ", " +
                              format_number(kFloatMax) + "])");
        }
    }
  }
}

}  // namespace yeex::deck_detail
