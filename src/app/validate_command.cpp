#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "src/app/commands.hpp"
#include "src/app/split_options.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/provenance.hpp"
#include "src/solver/engines.hpp"
#include "src/validate/validation.hpp"

namespace yeex {
namespace {

// "2 GPU(s)", "4 slab(s) on 1 GPU(s)" (cuda) or "3 slab(s)" (host).
std::string split_summary(const RunConfig& r) {
  if (r.engine != "cuda") return std::to_string(r.subdomains) + " slab(s)";
  std::vector<int> gpus = r.devices;
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  const std::string on = std::to_string(gpus.size()) + " GPU(s)";
  return gpus.size() == r.devices.size() ? on : std::to_string(r.devices.size()) + " slab(s) on " + on;
}

}  // namespace

int validate_command(const ValidateOptions& o) {
  ValidationContext context;
  context.run = resolve_split(o.split);
  context.run.precision_bits = precision_bits(o.precision);
  context.quick = o.quick;
  if (o.json) check_output_file(*o.json, "--json");
  const RunConfig& r = context.run;
  try {  // refused before the header: unknown problems, a split or backend a problem cannot run
    check_validation(context, o.only);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::printf("# yeex validate%s: %s engine, %s, %s, exchange %s\n", o.quick ? " --quick" : "", r.engine.c_str(),
              r.precision_bits == 64 ? "float64" : "float32", split_summary(r).c_str(),
              r.exchange.empty() ? "default" : r.exchange.c_str());
  std::printf("# error: relative = |measured - reference| / |reference|; pass when error <= tolerance\n");
  std::printf("%-12s %-58s %14s %14s %10s %10s  %s\n", "problem", "quantity", "measured", "reference", "error",
              "tolerance", "result");
  nlohmann::json problems = nlohmann::json::array();
  const auto report = [&](const ProblemOutcome& p) {
    for (const CheckRow& row : p.rows) {
      const std::string quantity = row.quantity + (row.unit.empty() ? "" : " (" + row.unit + ")");
      std::printf("%-12s %-58s %14.8g %14.8g %10.3e %10.3e  %s\n", p.name.c_str(), quantity.c_str(), row.measured,
                  row.reference, row.error, row.tolerance, row.pass ? "PASS" : "FAIL");
    }
    if (!p.failure.empty()) std::printf("%-12s run failed: %s  FAIL\n", p.name.c_str(), p.failure.c_str());
    std::printf("%-12s %.1f s\n", "", p.seconds);
    std::fflush(stdout);
    problems.push_back(to_json(p));
  };
  std::vector<ProblemOutcome> outcomes;
  try {
    outcomes = run_validation(context, o.only, report);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  int failed = 0;
  for (const auto& p : outcomes) failed += !p.pass();
  std::printf("# %zu problem(s), %d failed: %s\n", outcomes.size(), failed, failed ? "FAIL" : "PASS");
  if (o.json) {
    const nlohmann::json j{{"format", "yeex-validate-1"},
                           {"command", o.command_line},
                           {"provenance", provenance()},
                           {"engine", r.engine},
                           {"engine_description", engine_description(r.engine)},
                           {"precision", r.precision_bits == 64 ? "f64" : "f32"},
                           {"devices", r.devices},
                           {"subdomains", exchange_request(r).subdomains},
                           {"exchange", r.exchange.empty() ? "default" : r.exchange},
                           {"quick", o.quick},
                           {"pass", failed == 0},
                           {"problems", problems}};
    write_text_atomically(*o.json, j.dump(2) + "\n");
  }
  return failed ? 1 : 0;
}

}  // namespace yeex
