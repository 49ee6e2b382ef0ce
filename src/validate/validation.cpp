#include "src/validate/validation.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>

#include "src/exchange/registry.hpp"
#include "src/runtime/clock.hpp"
#include "src/validate/problems.hpp"

namespace yeex {

CheckRow relative_row(std::string quantity, std::string unit, double measured, double reference, double tolerance) {
  CheckRow row{std::move(quantity), std::move(unit), measured, reference, 0, tolerance, "relative", false};
  row.error = std::abs(measured - reference) / std::abs(reference);
  row.pass = row.error <= tolerance;  // false for NaN
  return row;
}

void add_dipole_triplet(Deck& deck, const std::array<Vec3, 3>& where, WaveformKind waveform, double frequency) {
  for (int a = 0; a < 3; ++a) {
    Source s;
    s.name = std::string("tx_") + "xyz"[a];
    s.polarisation = a;
    s.position = where[a];
    s.waveform = waveform;
    s.frequency = frequency;
    deck.sources.push_back(s);
  }
}

const std::vector<ValidationProblem>& validation_problems() {
  static const std::vector<ValidationProblem> problems{
      {"cavity", "PEC box resonances vs the discrete Yee dispersion relation", validate_cavity, cavity_deck},
      {"energy", "discrete energy of a lossless closed box (float64)", validate_energy, closed_lossless_box},
      {"propagation", "TE10 pulse phase/group velocity vs the discrete dispersion relation", validate_propagation,
       propagation_deck},
      {"dipole", "Hertzian dipole Ez vs the analytic near + far field", validate_dipole, dipole_deck},
      {"cpml", "CPML reflection (10 cells) vs a large-domain reference", validate_cpml, cpml_problem_deck},
      {"tfsf", "plane-wave TF/SF leakage into the scattered-field region, normal and oblique", validate_tfsf,
       tfsf_problem_deck},
      {"debye_reflection", "TE10 reflection from a Debye half-space vs the complex Fresnel coefficient",
       validate_debye_reflection, debye_reflection_deck},
      {"drude_slab", "TE10 transmission through a Drude slab vs the analytic slab transmission", validate_drude_slab,
       drude_slab_deck},
      {"lorentz_slab", "TE10 transmission through a Lorentz slab vs the analytic slab transmission",
       validate_lorentz_slab, lorentz_slab_deck},
      {"mie_sphere", "dielectric sphere under a TF/SF plane wave: scattered near field vs the Mie series",
       validate_mie_sphere, mie_sphere_deck},
  };
  return problems;
}

bool ProblemOutcome::pass() const {
  if (!failure.empty() || rows.empty()) return false;
  for (const auto& r : rows)
    if (!r.pass) return false;
  return true;
}

void check_validation(const ValidationContext& context, const std::vector<std::string>& only) {
  const auto& problems = validation_problems();
  for (const auto& name : only) {
    bool known = false;
    for (const auto& p : problems) known |= p.name == name;
    if (!known)
      throw std::invalid_argument("--only " + name + ": unknown problem (one of " + validation_problem_names() + ")");
  }
  for (const auto& p : problems) {
    if (!only.empty() && std::find(only.begin(), only.end(), p.name) == only.end()) continue;
    try {
      const Deck deck = p.deck(context.quick);
      check_run_config(deck.grid, context.run);
      if (deck.has_dispersion() && context.run.exchange == "coop") throw std::invalid_argument(kCoopNoDispersion);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("problem " + p.name + ": " + e.what());
    }
  }
}

std::vector<ProblemOutcome> run_validation(const ValidationContext& context, const std::vector<std::string>& only,
                                           const std::function<void(const ProblemOutcome&)>& report) {
  check_validation(context, only);
  const auto& problems = validation_problems();
  std::vector<ProblemOutcome> outcomes;
  for (const auto& p : problems) {
    if (!only.empty() && std::find(only.begin(), only.end(), p.name) == only.end()) continue;
    ProblemOutcome outcome;
    outcome.name = p.name;
    const auto t0 = Clock::now();
    try {
      outcome.rows = p.run(context);
    } catch (const std::invalid_argument&) {
      throw;  // a split or backend that cannot run: bad options, not a failed check
    } catch (const std::exception& e) {
      outcome.failure = e.what();
    }
    outcome.seconds = seconds_since(t0);
    if (report) report(outcome);
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

nlohmann::json to_json(const ProblemOutcome& o) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : o.rows)
    rows.push_back({{"quantity", r.quantity},
                    {"unit", r.unit},
                    {"measured", r.measured},
                    {"reference", r.reference},
                    {"error", r.error},
                    {"error_kind", r.error_kind},
                    {"tolerance", r.tolerance},
                    {"pass", r.pass}});
  nlohmann::json j{{"problem", o.name}, {"pass", o.pass()}, {"seconds", o.seconds}, {"rows", rows}};
  if (!o.failure.empty()) j["failure"] = o.failure;
  return j;
}

std::string validation_problem_names() {
  std::string names;
  for (const auto& p : validation_problems()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

}  // namespace yeex
