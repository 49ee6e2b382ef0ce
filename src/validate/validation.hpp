// `yeex validate`: built-in problems with known answers, each run through run_model with the
// engine, exchange backend and split the user chose, each giving rows of
// (quantity, measured, reference, error, tolerance, PASS/FAIL).
//
// Adding a check: write one function `std::vector<CheckRow> f(const ValidationContext&)` (in its
// own file under src/validate/, declared in problems.hpp) and add one line to the list in
// validation.cpp. Every tolerance is justified in a comment next to it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/solver/solver.hpp"

namespace yeex {

struct ValidationContext {
  RunConfig run;       // engine, precision, split, exchange (output_dir unset: nothing is written)
  bool quick = false;  // sizes that run in seconds on 2 CPU cores (CTest, CI)
};

struct CheckRow {
  std::string quantity;  // what was measured, e.g. "TE101 frequency"
  std::string unit;      // of measured and reference ("GHz", "", ...)
  double measured = 0;
  double reference = 0;
  double error = 0;        // as defined by `error_kind`
  double tolerance = 0;    // pass: error <= tolerance
  std::string error_kind;  // "relative", "absolute", "of peak", ...
  bool pass = false;
};

// A row whose error is |measured - reference| / |reference|.
CheckRow relative_row(std::string quantity, std::string unit, double measured, double reference, double tolerance);

struct ValidationProblem {
  std::string name;         // for --only
  std::string description;  // one line
  std::function<std::vector<CheckRow>(const ValidationContext&)> run;
  std::function<Deck(bool quick)> deck;  // the deck `run` splits as the user asked
};

// Every problem, in the order they run, and their names joined by ", ".
const std::vector<ValidationProblem>& validation_problems();
std::string validation_problem_names();

struct ProblemOutcome {
  std::string name;
  std::vector<CheckRow> rows;
  std::string failure;  // the run itself failed (exception): the problem FAILs with this message
  double seconds = 0;
  bool pass() const;
};

// Throws std::invalid_argument for the first of `only` that is no problem's name, or the first
// problem whose deck the context's split cannot run (more slabs than planes, a halo deeper than a
// slab, a backend that cannot run): before any problem runs or anything is printed.
void check_validation(const ValidationContext& context, const std::vector<std::string>& only);
// Runs the named problems (all when `only` is empty); throws std::invalid_argument for an unknown
// name. `report` is called as each problem finishes.
std::vector<ProblemOutcome> run_validation(const ValidationContext& context, const std::vector<std::string>& only,
                                           const std::function<void(const ProblemOutcome&)>& report = {});

nlohmann::json to_json(const ProblemOutcome& outcome);

}  // namespace yeex
