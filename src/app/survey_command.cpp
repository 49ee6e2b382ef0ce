// `yeex survey`: the topology, yeex-p2p's suite (a child process, when yeex-p2p sits beside
// yeex) and the bench phases of src/survey/survey.hpp within a time budget, written whole into
// one folder: survey.json, then report.md, report.html and the PNGs rendered from it by
// scripts/survey_report.py. `--from DIR` renders again from DIR/survey.json alone (no GPU);
// `--what-if FILE` adds the predictions for another machine's links (src/survey/what_if.hpp).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "decomposition/slab_decomposition.hpp"
#include "io/atomic_file.hpp"
#include "src/app/commands.hpp"
#include "src/app/output_folder.hpp"
#include "src/app/run_report.hpp"
#include "src/app/split_options.hpp"
#include "src/bench/exchange_model.hpp"
#include "src/exchange/registry.hpp"
#include "src/runtime/placement.hpp"
#include "src/runtime/provenance.hpp"
#include "src/solver/engines.hpp"
#include "src/solver/memory_estimate.hpp"
#include "src/survey/link_matrices.hpp"
#include "src/survey/survey.hpp"
#include "src/survey/what_if.hpp"

namespace yeex {
namespace {

namespace fs = std::filesystem;
constexpr const char* kSurveyFile = "survey.json";

// "90", "90s", "15m", "1.5h" -> seconds.
double parse_budget(const std::string& text) {
  static const std::regex form(R"(([0-9]+(\.[0-9]+)?)([smh]?))");
  std::smatch m;
  if (!std::regex_match(text, m, form))
    throw UsageError("--budget " + text + ": expected a time such as 90s, 15m or 1h");
  const double value = std::stod(m[1].str());
  const std::string unit = m[3].str();
  const double seconds = value * (unit == "h" ? 3600 : unit == "m" ? 60 : 1);
  if (seconds < 10 || seconds > 7 * 86400) throw UsageError("--budget " + text + ": must be from 10s to 7 days");
  return seconds;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

fs::path executable_folder() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

// The report renderer and a python3 that has matplotlib, or why there is none.
struct Renderer {
  std::string command;  // "python3 'script'"
  std::string why_not;
};

Renderer find_renderer() {
  std::vector<fs::path> scripts{YEEX_SURVEY_RENDERER};
  if (const fs::path here = executable_folder(); !here.empty()) {
    scripts.push_back(here / "scripts" / "survey_report.py");
    scripts.push_back(here.parent_path() / "scripts" / "survey_report.py");
  }
  fs::path script;
  for (const auto& s : scripts)
    if (std::error_code ec; fs::is_regular_file(s, ec)) {
      script = s;
      break;
    }
  if (script.empty()) return {"", "scripts/survey_report.py not found (looked in " + scripts.front().string() + ")"};
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    const std::string probe = std::string(python) + " -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return {std::string(python) + " " + quoted(script.string()), ""};
  }
  return {"", "no python3 with matplotlib (scripts/setup.sh pictures installs it)"};
}

// Runs `command`; its exit status (127 when it could not start).
int run_child(const std::string& command) {
  std::fflush(stdout);
  const int status = std::system(command.c_str());
  if (status == -1) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

// The reports of `folder` from its survey.json; a report.md that says how to render when the
// renderer cannot run here.
void render(const fs::path& folder, const Renderer& renderer) {
  if (renderer.why_not.empty() && run_child(renderer.command + " " + quoted(folder.string()) + " >" +
                                            quoted((folder / "render.log").string()) + " 2>&1") == 0) {
    fs::remove(folder / "render.log");
    return;
  }
  std::string why = renderer.why_not;
  if (why.empty()) {
    std::ifstream log(folder / "render.log");
    std::ostringstream text;
    text << log.rdbuf();
    why = "scripts/survey_report.py failed:\n\n```\n" + text.str() + "```";
  }
  std::fprintf(stderr, "yeex: survey: the report could not be rendered here: %s\n",
               renderer.why_not.empty() ? "see report.md" : renderer.why_not.c_str());
  write_text_atomically(folder / "report.md",
                        "# yeex survey\n\nThe measurements are in survey.json; the report could not be rendered "
                        "here: " +
                            why + "\n\nRender it on any machine with python3 and matplotlib: `yeex survey --from " +
                            "DIR` (or `scripts/survey_report.py DIR`).\n");
}

nlohmann::json what_if_section(const LinkMatrices& links, const std::vector<ComputeBaseline>& baselines,
                               const std::vector<std::string>& exchanges, int precision_bits) {
  nlohmann::json predictions = nlohmann::json::array();
  for (const Prediction& p :
       predict(links, baselines, exchanges, static_cast<int>(links.gpus.size()), 2, precision_bits, true, true))
    predictions.push_back(to_json(p));
  return {{"links", to_json(links)},
          {"model", what_if_model()},
          {"assumptions", what_if_assumptions()},
          {"predictions", predictions}};
}

LinkMatrices load_what_if(const fs::path& path) {
  try {
    return load_link_matrices(path);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--what-if: ") + e.what());
  }
}

// The 1-device times of a survey.json's scaling phases.
std::vector<ComputeBaseline> baselines_of(const nlohmann::json& survey) {
  std::vector<ComputeBaseline> out;
  for (const auto& phase : survey.at("phases")) {
    if (phase.value("kind", "") != "scaling") continue;
    for (const auto& r : phase.at("rows"))
      if (r.value("exchange", "") == "-" && r.value("skipped", "").empty()) {
        const auto g = r.at("grid");
        out.push_back({r.at("size").get<Index>(), GridShape{g[0].get<Index>(), g[1].get<Index>(), g[2].get<Index>()},
                       r.at("seconds_per_step_median").get<double>()});
        break;
      }
  }
  return out;
}

int rerender(const SurveyOptions& o) {
  const fs::path dir = *o.from;
  nlohmann::json survey;
  {
    std::ifstream in(dir / kSurveyFile);
    if (!in) throw UsageError("--from " + dir.string() + ": no " + kSurveyFile + " there");
    try {
      in >> survey;
    } catch (const nlohmann::json::exception& e) {
      throw UsageError("--from " + dir.string() + ": " + kSurveyFile + " is not JSON: " + e.what());
    }
    if (!survey.is_object() || survey.value("format", "") != "yeex-survey-1")
      throw UsageError("--from " + dir.string() + ": " + kSurveyFile + " is not a yeex survey (format yeex-survey-1)");
  }
  std::optional<LinkMatrices> what_if;
  if (o.what_if) what_if = load_what_if(*o.what_if);
  const Renderer renderer = find_renderer();
  StagedFolder staged(dir);
  // Everything but the rendered files travels into the new folder.
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "report.md" || name == "report.html" || entry.path().extension() == ".png") continue;
    fs::copy(entry.path(), staged.path() / name, fs::copy_options::recursive);
  }
  if (what_if) {
    try {
      survey["what_if"] =
          what_if_section(*what_if, baselines_of(survey), survey.value("exchanges", std::vector<std::string>()),
                          survey.value("precision", "f32") == "f64" ? 64 : 32);
    } catch (const nlohmann::json::exception& e) {
      throw UsageError("--from " + dir.string() + ": " + kSurveyFile + " lacks what --what-if needs: " + e.what());
    }
    survey["rendered_with_what_if"] = o.command_line;
    write_text_atomically(staged.path() / kSurveyFile, survey.dump(2) + "\n");
  }
  render(staged.path(), renderer);
  if (const std::string warning = staged.commit(); !warning.empty())
    std::fprintf(stderr, "yeex: %s\n", warning.c_str());
  std::printf("yeex survey: report of %s rendered again: report.md, report.html\n", dir.string().c_str());
  return 0;
}

// yeex-p2p's suite into `folder` (p2p.json, p2p.txt): the document, or null with why not.
nlohmann::json run_p2p_suite(const std::vector<int>& devices, const fs::path& folder, double budget_seconds) {
  const fs::path p2p = executable_folder() / "yeex-p2p";
  std::error_code ec;
  if (!fs::is_regular_file(p2p, ec))
    return {{"status", "skipped"}, {"why", "no yeex-p2p beside yeex (" + p2p.string() + ")"}};
  if (budget_seconds < 180) return {{"status", "skipped"}, {"why", "a budget under 3 minutes leaves no time for it"}};
  std::string list;
  for (int d : devices) list += (list.empty() ? "" : ",") + std::to_string(d);
  const std::string command = quoted(p2p.string()) + " --devices " + list +
                              " --test ce-unidir,ce-bidir,latency,sweep,host-staged --sweep 4:64M --repeats 5 --json " +
                              quoted((folder / "p2p.json").string());
  const int code = run_child(command + " >" + quoted((folder / "p2p.txt").string()) + " 2>&1");
  nlohmann::json out{{"command", command}, {"exit_code", code}};
  std::ifstream in(folder / "p2p.json");
  nlohmann::json document;
  if (in) try {
      in >> document;
    } catch (const nlohmann::json::exception&) {
      document = nullptr;
    }
  out["status"] = document.is_object() ? "ran" : "failed";
  if (!document.is_object()) out["why"] = "yeex-p2p exited " + std::to_string(code) + " without its JSON (p2p.txt)";
  out["document"] = document.is_object() ? document : nlohmann::json();
  return out;
}

}  // namespace

int survey_command(const SurveyOptions& o) {
  if (o.from && o.output)
    throw UsageError("--from DIR renders an earlier survey again; --output DIR measures a new one: name one");
  if (!o.from && !o.output)
    throw UsageError("name --output DIR (measure this machine) or --from DIR (render a survey again)");
  if (o.from) return rerender(o);

  // ---- every check before any measurement or file
  const double budget = parse_budget(o.budget);
  std::optional<LinkMatrices> what_if;
  if (o.what_if) what_if = load_what_if(*o.what_if);
  const fs::path target = *o.output;
  check_run_output_folder(target, {kSurveyFile, "report.md", "report.html"});
  if (!output_folder_contents(target).empty())
    throw UsageError("--output " + target.string() +
                     ": the folder holds files; a survey writes into a new or empty folder");
  if (o.split.halo_depth != 1 || !o.split.exchange.empty())
    throw UsageError("survey measures every backend at its own halo depth: leave --exchange and --halo-depth out");
  const RunConfig pool = resolve_split(o.split);
  SurveyConfig c;
  c.engine = pool.engine;
  c.precision_bits = precision_bits(o.precision);
  c.budget_seconds = budget;
  c.pin = !o.split.no_pin;
  if (c.engine == "cuda") {
    if (most_slabs_per_gpu(pool.devices) > 1)
      throw UsageError(
          "survey measures scaling over GPUs, one z-slab each: leave --subdomains out with the cuda engine");
    c.devices = pool.devices;
  } else {
    c.slabs = o.split.subdomains.value_or(4);
  }
  c.topology = detect_topology(c.devices);
  for (const auto& e : exchange_catalogue())
    if (e.threads_mode) c.exchanges.push_back(e.name);
  // Sizes whose 1-device row fits the memory of one device.
  const std::size_t have = available_memory(c.engine, c.devices.empty() ? 0 : c.devices.front());
  std::vector<std::string> notes;
  for (Index n : survey_sizes(c.engine)) {
    const std::size_t need = estimate_engine_bytes(bench_deck({n, n, n}, 1), c.precision_bits, 1, 2);
    if (need < have)
      c.sizes.push_back(n);
    else
      notes.push_back("size " + std::to_string(n) + " left out: needs about " + gib(need) + ", " + gib(have) +
                      " available");
  }
  if (c.sizes.empty()) throw UsageError("not even the smallest survey grid fits in memory (" + notes.front() + ")");
  const Renderer renderer = find_renderer();

  // ---- measure
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  StagedFolder staged(target);
  std::printf("# yeex survey: %s engine, %s, %s, budget %s, into %s\n", c.engine.c_str(),
              c.precision_bits == 64 ? "float64" : "float32",
              c.engine == "cuda" ? (std::to_string(c.devices.size()) + " GPU(s)").c_str()
                                 : (std::to_string(c.slabs) + " slabs at most").c_str(),
              clock_text(budget).c_str(), target.string().c_str());
  if (!renderer.why_not.empty())
    std::printf(
        "# the report cannot be rendered here (%s): survey.json is written; yeex survey --from DIR renders it\n",
        renderer.why_not.c_str());
  if (c.engine == "cuda") std::fputs(format_topology(c.topology).c_str(), stdout);
  nlohmann::json p2p{{"status", "skipped"}, {"why", "the " + c.engine + " engine has no GPU links"}};
  std::optional<P2PSweep> sweep;
  std::optional<LinkMatrices> links;
  if (c.engine == "cuda" && c.devices.size() > 1) {
    std::printf("# [%s] yeex-p2p suite ...\n", clock_text(elapsed()).c_str());
    p2p = run_p2p_suite(c.devices, staged.path(), budget);
    if (p2p.value("status", "") == "ran") {
      try {
        sweep = parse_p2p_sweep(p2p["document"], "yeex-p2p");
      } catch (const std::invalid_argument& e) {
        notes.push_back(std::string("no sweep for the wire-time prediction: ") + e.what());
      }
      try {
        links = parse_link_matrices_json(p2p["document"], "yeex-p2p");
      } catch (const std::exception& e) {
        notes.push_back(std::string("no link matrices for the model check: ") + e.what());
      }
    }
    std::printf("# [%s] yeex-p2p: %s%s\n", clock_text(elapsed()).c_str(), p2p.value("status", "").c_str(),
                p2p.contains("why") ? (" (" + p2p["why"].get<std::string>() + ")").c_str() : "");
  }
  std::vector<SurveyPhase> phases = plan_survey(c);
  run_survey(c, phases, elapsed(), [&](const SurveyPhase& p, const BenchRow& r, int done, int planned) {
    if (!r.skipped.empty()) return;
    std::printf("[%3d/%3d %s/%s] %-18s %-6s %4lld %-12s N=%-2d %9.4f ms/step %8.2f Gcells/s  eff %5.1f%%\n", done,
                planned, clock_text(elapsed()).c_str(), clock_text(budget).c_str(), p.name.c_str(), r.scaling.c_str(),
                (long long)r.size, r.exchange.c_str(), r.count, r.seconds_per_step * 1e3, r.gcells_per_second,
                100 * r.efficiency);
    std::fflush(stdout);
  });
  for (const auto& p : phases)
    if (!p.skipped.empty()) std::printf("# phase %s skipped: %s\n", p.name.c_str(), p.skipped.c_str());

  // ---- survey.json, then the reports
  const double copy = memory_copy_bandwidth(c.engine, c.devices.empty() ? 0 : c.devices.front());
  nlohmann::json phase_list = nlohmann::json::array();
  for (const auto& p : phases) phase_list.push_back(to_json(p));
  nlohmann::json pinning = nlohmann::json::array();
  for (const auto& cpus : local_cpus(c.topology, c.devices)) pinning.push_back(format_cpulist(cpus));
  nlohmann::json survey{
      {"format", "yeex-survey-1"},
      {"command", o.command_line},
      {"created", utc_now()},
      {"provenance", provenance()},
      {"engine", c.engine},
      {"engine_description", engine_description(c.engine)},
      {"precision", c.precision_bits == 64 ? "f64" : "f32"},
      {"budget_seconds", budget},
      {"elapsed_seconds", elapsed()},
      {"devices", c.devices},
      {"slabs", c.engine == "cuda" ? nlohmann::json() : nlohmann::json(c.slabs)},
      {"sizes", c.sizes},
      {"exchanges", c.exchanges},
      {"notes", notes},
      {"placement",
       {{"order", c.devices},
        {"chosen_by", o.split.devices.empty() ? "topology (src/runtime/placement.hpp)" : "--devices"},
        {"boundary_links", boundary_links(c.topology, c.devices)}}},
      {"pinning", {{"enabled", c.pin && c.engine == "cuda"}, {"cpus_by_device", pinning}}},
      {"topology", to_json(c.topology)},
      {"copy_bandwidth_gb_per_s", copy},
      {"bytes_per_cell_step", kBytesPerCellStep * c.precision_bits / 32},
      {"p2p", p2p},
      {"link_matrices", links ? to_json(*links) : nlohmann::json()},
      {"phases", phase_list},
      {"model_check", model_check(c, phases, sweep, links)},
      {"model_check_definition", {{"sweep", exchange_model_definition()}, {"model", what_if_model()}}},
      {"what_if", what_if ? what_if_section(*what_if, compute_baselines(phases), c.exchanges, c.precision_bits)
                          : nlohmann::json()},
      {"definitions",
       {{"gcells_per_s", "global cells x steps / time / 1e9, time = median of the repeats"},
        {"strong efficiency", "T1 / (N x TN), same global grid, T1 = 1 device in the same phase"},
        {"weak efficiency", "T1 / TN, the same cells per device (the grid stacked N times along z)"},
        {"exchange_seconds_per_step", "host clock, slowest device; synchronous backends only (0 otherwise)"},
        {"effective bandwidth", "Gcells/s per device x bytes_per_cell_step, against copy_bandwidth_gb_per_s"}}}};
  write_text_atomically(staged.path() / kSurveyFile, survey.dump(2) + "\n");
  render(staged.path(), renderer);
  if (const std::string warning = staged.commit(); !warning.empty())
    std::fprintf(stderr, "yeex: %s\n", warning.c_str());
  std::printf("# [%s] survey written: %s/report.md, report.html, survey.json\n", clock_text(elapsed()).c_str(),
              target.string().c_str());
  return 0;
}

}  // namespace yeex
