// CPML reflection: a pulsed dipole in a small box closed by 10-cell CPML (the deck defaults) on all
// six faces, against the same dipole in a PEC box large enough that no wall echo reaches the probe
// within the window (src/solver/cpml_reflection.hpp). The small box runs exactly as the user asked
// (engine, precision, split, exchange), so the PML slabs cross subdomain boundaries when it is
// split; the reference runs as one domain.
#include <cmath>

#include "src/solver/cpml_reflection.hpp"
#include "src/validate/problems.hpp"

namespace yeex {

namespace {

CpmlReflectionOptions cpml_problem_options(bool quick) {
  CpmlReflectionOptions options;
  // Full size: twice the interior (the probe twice as far from the source, a longer window in
  // which late reflections would show), the same 10-cell CPML.
  if (!quick) options.interior = 40;
  return options;
}

}  // namespace

Deck cpml_problem_deck(bool quick) { return cpml_reflection_deck(cpml_problem_options(quick), false); }

std::vector<CheckRow> validate_cpml(const ValidationContext& context) {
  CpmlReflectionOptions options = cpml_problem_options(context.quick);
  options.small_run = context.run;
  const CpmlReflection r = measure_cpml_reflection(options);
  // The figure: at most -60 dB with 10 cells, i.e. an error (the largest difference from
  // the reference, over the reference's peak) of at most 1e-3. The CPU measurement gives about
  // -96 dB (f64), and float32 rounding alone sits near -130 dB, so the tolerance separates a
  // working absorber from a broken profile (a PEC wall reads -4 dB) by a wide margin.
  CheckRow row;
  row.quantity = "CPML reflection, " + std::to_string(options.cpml.cells) + " cells, at " +
                 std::to_string(static_cast<int>(std::lround(r.probe_distance * 1e3))) + " mm from the source";
  row.unit = "dB";
  row.measured = r.db;
  row.reference = -60.0;
  row.error = r.max_difference / r.max_reference;
  row.tolerance = 1e-3;
  row.error_kind = "of the reference peak";
  row.pass = std::isfinite(row.error) && row.error <= row.tolerance;
  return {row};
}

}  // namespace yeex
