// yeex command line: run a deck, benchmark an engine, list engines. Started by mpirun, yeex
// runs in MPI mode (src/app/mpi_mode.hpp): MPI lives from here to the end of main.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "io/deck.hpp"
#include "src/app/commands.hpp"
#include "src/cli/help_formatter.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/runtime/build_info.hpp"
#include "src/runtime/environment.hpp"
#include "src/runtime/interrupts.hpp"
#include "src/solver/engines.hpp"
#include "src/validate/validation.hpp"
#include "src/runtime/mpi_launch.hpp"

namespace {

// A whole number from lo to hi. CLI11's own range checks print their bounds as doubles
// ("Value 0 not in range 0.000000 to 179769313486...") and call a word "not in range".
CLI::Validator whole_number(long long lo, long long hi = std::numeric_limits<int>::max()) {
  const std::string range = "from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0') return "'" + text + "' is not a whole number";
        if (errno == ERANGE || value < lo || value > hi) return "must be " + range + ", got " + text;
        return "";
      },
      "INT " + range);
}

// A path that names something: an empty one would silently fall back to the default.
const CLI::Validator non_empty_path(
    [](std::string& text) -> std::string { return text.empty() ? "must not be empty" : ""; }, "PATH");

// CLI11 answers a mistyped command ("yeex runn") with "A subcommand is required"; this names it.
// CLI11's parse errors, said as yeex says the others: prefixed, and naming what to do.
std::string parse_error_message(const CLI::ParseError& e) {
  const std::string what = e.what();
  const std::string help = " (yeex --help, or yeex COMMAND --help)";
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::size_t colon = what.find(": ");
    return "unknown option or extra argument: " + (colon == std::string::npos ? what : what.substr(colon + 2)) + help;
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && what.find(" missing") != std::string::npos) {
    const std::size_t colon = what.find(": ");
    return (colon == std::string::npos ? std::string("an option") : what.substr(0, colon)) + " needs a value" + help;
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) && what.find("subcommand") != std::string::npos)
    return "name a command: run, bench, survey, validate, engines or exchanges" + help;
  return what + help;
}

std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  const std::string first = argv[1];
  if (first == "-h" || first == "--help" || first == "--version") return std::nullopt;
  std::string names;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_name() == first) return std::nullopt;
    names += (names.empty() ? "" : ", ") + command->get_name();
  }
  return (first.rfind('-', 0) == 0 ? "unknown option '" + first + "'" : "unknown command '" + first + "'") +
         " (the commands: " + names + "; yeex --help)";
}

// CLI11 drops the empty elements of a comma list ("--counts 1,,2" ran counts 1 and 2); this names
// a list with one, the typo it usually is.
std::optional<std::string> empty_list_element(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = nullptr;
  for (const CLI::App* candidate : app.get_subcommands({}))
    if (argc > 1 && candidate->get_name() == argv[1]) command = candidate;
  if (!command) return std::nullopt;
  for (int i = 2; i < argc; ++i) {
    std::string name = argv[i], value;
    const auto equals = name.find('=');
    if (name.rfind("--", 0) != 0) continue;
    if (equals != std::string::npos) {
      value = name.substr(equals + 1);
      name.resize(equals);
    } else if (i + 1 < argc) {
      value = argv[i + 1];
    }
    const CLI::Option* option = command->get_option_no_throw(name);
    if (!option || option->get_delimiter() != ',' || (equals == std::string::npos && i + 1 >= argc)) continue;
    if (value.empty() || value.front() == ',' || value.back() == ',' || value.find(",,") != std::string::npos)
      return name + (value.empty() ? ": the list is empty" : ": '" + value + "' has an empty element");
  }
  return std::nullopt;
}

}  // namespace

static int yeex_main(int argc, char** argv) {
  using namespace yeex;
  const MpiLaunch launch = detect_mpi_launch();
  if (launch.launched && !mpi_built() && launch.size != 1) {
    if (launch.rank == 0)
      std::fprintf(stderr,
                   "yeex: started by an MPI launcher (%s), but this build has no MPI mode: every process would run the "
                   "whole model alone. Run yeex without mpirun (threads mode: one process drives every GPU), or "
                   "rebuild with an MPI library installed (scripts/setup.sh; CMake option YEEX_ENABLE_MPI)\n",
                   launch.variable.c_str());
    return 2;
  }
  std::optional<MpiSession> mpi;
  if (launch.launched && mpi_built()) {
    try {
      mpi.emplace(argc, argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "yeex: MPI mode cannot start: %s\n", e.what());
      return 1;
    }
  }
  const ProcessGroup* world = mpi ? &mpi->world() : nullptr;
  const bool root = !world || world->rank() == 0;
  if (world) {
    try {
      check_same_arguments(*world, std::vector<std::string>(argv + 1, argv + argc));
    } catch (const AgreedExit& e) {
      return e.code();
    }
    share_cores_among_node_ranks(*world);
  }

  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{
      "yeex: a reproducible multi-GPU FDTD (Yee) Maxwell solver. One 3D model is split into z-slabs, one "
      "per GPU (or several host slabs on a CPU); the ghost planes between slabs travel by the exchange "
      "backend you choose, and every run reports its speed and a checksum of the fields.",
      "yeex"};
  const auto help = std::make_shared<HelpFormatter>();
  app.formatter(help);  // inherited by the commands added below
  app.set_help_flag("-h,--help", "Print this help and exit");
  app.set_version_flag("--version", std::string("yeex ") + kYeexVersion + " (" + kGitCommit + ")",
                       "Print the version and the git commit, and exit");
  app.require_subcommand(1);
  const std::vector<std::string> engines = engine_names();
  const std::vector<std::string> precisions{"f32", "f64"};

  const std::vector<std::string> exchanges{"host-staged", "p2p",  "overlap", "coop", "b2r",
                                           "graph",       "nccl", "mpi",     "list"};
  // The options that say how a run is split, shared by `run`, `bench`, `validate` and `exchanges`.
  const auto add_split_options = [&](CLI::App* cmd, SplitOptions& split) {
    const std::string group = "How the model is split";
    cmd->add_option("--engine", split.engine,
                    "Compute engine: host (CPU, OpenMP), cuda or kokkos; 'yeex engines' lists which run here. "
                    "Default: cuda when a GPU is visible, else host")
        ->check(CLI::IsMember(engines))
        ->option_text("NAME")
        ->group(group);
    cmd->add_option("--exchange", split.exchange,
                    "How the ghost planes travel between slabs: host-staged, p2p, overlap, coop, b2r, graph, nccl or "
                    "mpi; 'list' shows which can run here and how each works. Default: overlap where it can run, "
                    "else host-staged (b2r with --halo-depth above 1; MPI mode: nccl between GPUs, else mpi)")
        ->check(CLI::IsMember(exchanges))
        ->option_text("NAME")
        ->group(group);
    cmd->add_option("--gpus", split.gpus,
                    "cuda engine: use the first N visible GPUs. Default: all, but no more than --subdomains")
        ->check(whole_number(1))
        ->option_text("N")
        ->group(group);
    cmd->add_option("--devices", split.devices,
                    "cuda engine: use these GPUs in this order, e.g. 0,2 (one z-slab each, or --subdomains spread "
                    "over them); not with --gpus")
        ->delimiter(',')
        ->check(whole_number(0))
        ->excludes("--gpus")
        ->option_text("LIST")
        ->group(group);
    cmd->add_option("--subdomains", split.subdomains,
                    "Split the model into N z-slabs. Host engine: default 1. cuda: default one per GPU; more slabs "
                    "than GPUs puts several on one GPU (for testing and teaching)")
        ->check(whole_number(1))
        ->option_text("N")
        ->group(group);
    cmd->add_flag("--no-peer", split.no_peer,
                  "cuda engine: never enable peer access between GPUs (host-staged paths only)")
        ->group(group);
    cmd->add_flag("--no-pin", split.no_pin,
                  "cuda engine: leave each GPU's host thread unpinned (default: pinned to the CPUs local to its GPU)")
        ->group(group);
    cmd->add_option("--halo-depth", split.halo_depth,
                    "Ghost planes on each side of a slab, 1 to 64 (default 1). R above 1 exchanges every R steps and "
                    "recomputes the shrinking border in between (B+2R, the b2r backend)")
        ->check(whole_number(1, 64))
        ->option_text("R")
        ->group(group);
    cmd->add_flag("--oversubscribe-gpus", split.oversubscribe_gpus,
                  "MPI mode: let several ranks of a node share one GPU (refused otherwise)")
        ->group(group);
  };

  // What a run may fix instead of letting the engine and the backends choose by measurement or by
  // rule, shared by `run` and `bench`; run.json's engine_choices and exchange_choices say what was
  // chosen and why.
  const auto add_choice_options = [&](CLI::App* cmd, SplitOptions& split) {
    const std::string group = "Tuning choices (default: auto, chosen by rule or by measurement)";
    cmd->add_option("--arena-unit", split.arena_unit,
                    "cuda engine: the slot unit of the field arena that holds large fields (auto: the engine times "
                    "2M, 32M and 1G slots in its first steps and keeps the fastest)")
        ->check(CLI::IsMember({"auto", "2M", "32M", "1G"}))
        ->option_text("UNIT")
        ->group(group);
    cmd->add_option("--coop-form", split.coop_form,
                    "coop: its kernel's form, with the source code inlined or called (auto: both timed in the run's "
                    "first launches, the faster kept)")
        ->check(CLI::IsMember({"auto", "inlined", "called"}))
        ->option_text("FORM")
        ->group(group);
    cmd->add_option("--graph-steps", split.graph_steps,
                    "graph (and b2r's counters): steps recorded once and replayed as one CUDA graph (default 32; "
                    "rounded up to whole blocks of --halo-depth steps)")
        ->check(whole_number(1, 1000000))
        ->option_text("N")
        ->group(group);
    cmd->add_option("--b2r-transport", split.b2r_transport,
                    "b2r with peer access: counters (GPUs ordered by counters in GPU memory, steps replayed as CUDA "
                    "graphs; needs one slab a GPU), events (CUDA events and host barriers) or auto (counters where "
                    "each GPU holds one slab)")
        ->check(CLI::IsMember({"auto", "counters", "events"}))
        ->option_text("KIND")
        ->group(group);
  };

  RunOptions run;
  run.command_line = command_line;
  std::string deck;
  std::string output;
  Index steps = 0;
  auto* run_cmd = app.add_subcommand("run", "Run a deck (with no deck: a dipole in a PEC box with a dielectric block)");
  auto* deck_option = run_cmd->add_option("DECK", deck,
                                          "Input deck, a TOML file: inputs/ has examples, docs/decks.md every key. "
                                          "Without one: the built-in dipole in a PEC box (inputs/dipole_box.toml)");
  if (!world) deck_option->check(CLI::ExistingFile);  // MPI mode: rank 0 reads it, the others need not see it
  run_cmd
      ->add_option("--precision", run.precision,
                   "Field precision: f32 (default; with --resume, the checkpoint's) or f64")
      ->check(CLI::IsMember(precisions))
      ->option_text("f32|f64");
  run_cmd->add_option("--steps", steps, "Run N time steps instead of the deck's time.steps or time.duration")
      ->check(whole_number(1, kMaxSteps))
      ->option_text("N");
  run_cmd
      ->add_option("--output", output,
                   "Folder for run.json, probes.h5 and the snapshots. Default: the deck's output.directory, else "
                   "yeex-output/<deck file name without .toml> (the built-in deck: yeex-output/dipole_box). "
                   "It must be new or empty, unless --force")
      ->check(non_empty_path)
      ->option_text("DIR");
  run_cmd->add_flag("--force", run.force,
                    "Replace an output folder that already holds files: the run writes a new folder beside it and "
                    "puts it in place at the end, the earlier run's files (run.json, the files it lists, probes.h5, "
                    "snapshots) going with the old one; files yeex did not write are carried into the new folder");
  run_cmd->add_flag("--json", run.json,
                    "Print run.json on stdout instead of the summary (with --dry-run: the plan as one JSON object)");
  run_cmd->add_flag("--quiet,-q", run.quiet, "No progress line and no summary");
  run_cmd
      ->add_option("--check-every", run.check_every,
                   "Check the fields for NaN/Inf at least every N steps. Default: as often as keeps the checks "
                   "near 1 % of the run, and after the last step; 1 names the very step a blow-up happens")
      ->check(whole_number(1, kMaxSteps))
      ->option_text("N");
  run_cmd->add_flag("--dry-run", run.dry_run,
                    "Check the deck, the split, the memory and the output folder, print the plan (slabs, backend, "
                    "memory per GPU and per process, files), run and write nothing");
  std::string trace_path;
  auto* trace_option =
      run_cmd
          ->add_option("--trace", trace_path,
                       "Write what every slab's GPU streams and host thread did, phase by phase, during a few steps "
                       "as Chrome/Perfetto trace JSON to FILE (ui.perfetto.dev; scripts/plot_timeline.py draws it), "
                       "and print what tracing cost")
          ->check(non_empty_path)
          ->option_text("FILE");
  run_cmd
      ->add_option("--trace-steps", run.trace_steps,
                   "With --trace: the steps traced, FIRST:COUNT (COUNT from 1 to 1000). Default: 4 steps after the "
                   "first 10 (fewer, earlier, in a shorter run)")
      ->needs(trace_option)
      ->option_text("FIRST:COUNT");
  std::string checkpoint_dir, resume;
  run_cmd
      ->add_option("--checkpoint-every", run.checkpoint_every,
                   "Write a checkpoint every N steps (500) or every wall time (90s, 30m, 2h) into "
                   "OUTPUT.checkpoint/checkpoint.h5, beside the output folder; only the last is kept, and it is "
                   "removed when the run completes. 'yeex run --resume DIR' continues from it")
      ->option_text("N|TIME")
      ->group("Checkpoints");
  run_cmd
      ->add_option("--checkpoint-dir", checkpoint_dir,
                   "Folder for the checkpoint (default: the output folder's name + .checkpoint, beside it)")
      ->check(non_empty_path)
      ->option_text("DIR")
      ->group("Checkpoints");
  run_cmd
      ->add_option("--resume", resume,
                   "Continue the run a checkpoint folder (or file) holds, on any engine, GPU count or split: the "
                   "deck, steps, precision and output folder come from it; the result is the uninterrupted run's, "
                   "bit for bit")
      ->check(non_empty_path)
      ->option_text("DIR")
      ->group("Checkpoints");
  add_split_options(run_cmd, run.split);
  add_choice_options(run_cmd, run.split);

  SplitOptions list_split;
  auto* exchanges_cmd = app.add_subcommand("exchanges",
                                           "List the halo exchange backends and whether each can run here, "
                                           "for the split the options name");
  add_split_options(exchanges_cmd, list_split);

  BenchOptions bench;
  bench.command_line = command_line;
  std::string json_path;
  auto* bench_cmd = app.add_subcommand("bench",
                                       "Time the step loop per exchange backend and device count: strong and "
                                       "weak scaling, parallel efficiency");
  bench_cmd
      ->add_option("--exchanges", bench.exchanges,
                   "Backends to compare, e.g. p2p,overlap. Default: every backend of the mode; 'list' shows "
                   "which can run here")
      ->delimiter(',')
      ->option_text("LIST");
  bench_cmd
      ->add_option("--counts", bench.counts,
                   "Device counts (CPU engines: slab counts), e.g. 1,2,4. Default: 1, the powers of 2 and the "
                   "most: every GPU, or on a CPU engine --subdomains (default 4)")
      ->delimiter(',')
      ->check(whole_number(1))
      ->option_text("LIST");
  bench_cmd
      ->add_option("--scaling", bench.scaling,
                   "strong (one global grid), weak (each --size cube, or the deck's grid, per device) or both. "
                   "Default: " +
                       bench.scaling)
      ->check(CLI::IsMember({"strong", "weak", "both"}))
      ->option_text("KIND");
  bench_cmd->add_option("--precision", bench.precision, "Field precision: f32 (default) or f64")
      ->check(CLI::IsMember(precisions))
      ->option_text("f32|f64");
  bench.sizes.clear();
  std::string bench_deck_path;
  auto* bench_deck_option =
      bench_cmd
          ->add_option("--deck", bench_deck_path,
                       "Bench this deck's model (e.g. inputs/bench_box.toml) instead of the built-in box: on the "
                       "deck's own grid, or stretched onto each --size cube")
          ->check(CLI::ExistingFile)
          ->option_text("FILE");
  bench_cmd
      ->add_option("--size", bench.sizes,
                   "Cube edge in cells, 8 to 4096; several give a table each (--size 128 256). Default: 256; "
                   "with --deck, the deck's own grid")
      ->check(whole_number(8, 4096))
      ->option_text("CELLS");
  bench_cmd
      ->add_option("--steps", bench.steps, "Time steps per timed repeat (default " + std::to_string(bench.steps) + ")")
      ->check(whole_number(1, 1000000))
      ->option_text("N");
  bench_cmd
      ->add_option("--warmup", bench.warmup,
                   "Untimed steps before the timed repeats (default " + std::to_string(bench.warmup) + ")")
      ->check(whole_number(0, 1000000))
      ->option_text("N");
  bench_cmd
      ->add_option("--repeats", bench.repeats,
                   "Timed repeats, 1 to 1000; the median is reported (default " + std::to_string(bench.repeats) + ")")
      ->check(whole_number(1, 1000))
      ->option_text("N");
  bench_cmd
      ->add_option("--cpml", bench.cpml,
                   "Built-in box: an absorbing CPML layer of N cells on every face instead of PEC walls (default "
                   "0: PEC); not with --deck")
      ->check(whole_number(0, 1000))
      ->excludes(bench_deck_option)
      ->option_text("N");
  bench_cmd->add_option("--json", json_path, "Also write the results as JSON to FILE")
      ->check(non_empty_path)
      ->option_text("FILE");
  std::string markdown_path;
  bench_cmd
      ->add_option("--markdown", markdown_path,
                   "Also write the efficiency tables as markdown to FILE: a table per scaling and size, a row per "
                   "backend, a column per device count")
      ->check(non_empty_path)
      ->option_text("FILE");
  bench_cmd->add_flag("--csv", bench.csv, "Print CSV on stdout instead of the table");
  bench_cmd->add_flag("--verify", bench.verify,
                      "Hash every row's fields after the warm-up and compare them with the first row of its grid "
                      "(every backend and device count must give the same bits; exit 1 if one does not)");
  std::string p2p_json_path;
  bench_cmd
      ->add_option("--p2p-json", p2p_json_path,
                   "A 'yeex-p2p --test sweep --json' file: show the exchange time its size sweep predicts for "
                   "each row")
      ->check(non_empty_path)
      ->option_text("FILE");
  std::string bench_trace_path;
  bench_cmd
      ->add_option("--trace", bench_trace_path,
                   "After the timed repeats of the first row with more than one slab, one more repeat traced: "
                   "what every slab's GPU streams and host thread did, as Chrome/Perfetto trace JSON to FILE "
                   "(--steps at most 1000)")
      ->check(non_empty_path)
      ->option_text("FILE");
  add_split_options(bench_cmd, bench.split);
  add_choice_options(bench_cmd, bench.split);

  ValidateOptions validate;
  validate.command_line = command_line;
  std::string validate_json;
  auto* validate_cmd = app.add_subcommand("validate",
                                          "Run built-in problems with known answers and compare: measured "
                                          "against reference, PASS or FAIL");
  validate_cmd
      ->add_option("--precision", validate.precision,
                   "Field precision: f32 (default) or f64; the energy check always uses f64")
      ->transform(CLI::IsMember(
          std::map<std::string, std::string>{{"f32", "f32"}, {"32", "f32"}, {"f64", "f64"}, {"64", "f64"}}))
      ->option_text("f32|f64");
  validate_cmd->add_flag("--quick", validate.quick, "Small sizes that run in seconds on a CPU (what CI runs)");
  validate_cmd
      ->add_option("--only", validate.only,
                   "Run only these problems: " + validation_problem_names() + " (default: all)")
      ->delimiter(',')
      ->option_text("LIST");
  validate_cmd->add_option("--json", validate_json, "Also write the results as JSON to FILE")
      ->check(non_empty_path)
      ->option_text("FILE");
  add_split_options(validate_cmd, validate.split);

  // `yeex survey` (src/app/survey_command.cpp).
  SurveyOptions survey;
  survey.command_line = command_line;
  std::string survey_output, survey_from, survey_what_if;
  auto* survey_cmd = app.add_subcommand("survey",
                                        "Evaluate this machine in one command, within a time budget: topology, "
                                        "yeex-p2p, bench of every backend (strong, weak, peer on and off, per link "
                                        "class); writes survey.json, report.md, report.html and plots");
  survey_cmd->add_option("--output", survey_output, "Folder for the survey (new or empty)")
      ->check(non_empty_path)
      ->option_text("DIR");
  survey_cmd->add_option("--from", survey_from, "Render the report of an earlier survey again from DIR/survey.json")
      ->check(non_empty_path)
      ->option_text("DIR");
  survey_cmd->add_option("--budget", survey.budget, "Time for the measurements: 90s, 15m, 1h (default 15m)")
      ->option_text("TIME");
  survey_cmd->add_option("--precision", survey.precision, "Field precision: f32 (default) or f64")
      ->check(CLI::IsMember(precisions))
      ->option_text("f32|f64");
  survey_cmd
      ->add_option("--what-if", survey_what_if,
                   "Another machine's bandwidth and latency matrices (yeex-p2p JSON, or the text of "
                   "p2pBandwidthLatencyTest or nvbandwidth): predict each backend there")
      ->check(CLI::ExistingFile)
      ->option_text("FILE");
  survey_cmd->add_option("--engine", survey.split.engine, "Compute engine (default: cuda when a GPU is visible)")
      ->check(CLI::IsMember(engines))
      ->option_text("NAME");
  survey_cmd
      ->add_option("--devices", survey.split.devices,
                   "cuda engine: these GPUs, in this order (default: all, placed by topology)")
      ->delimiter(',')
      ->check(whole_number(0))
      ->option_text("LIST");
  survey_cmd
      ->add_option("--subdomains", survey.split.subdomains, "CPU engines: the most slabs a row splits into (default 4)")
      ->check(whole_number(1))
      ->option_text("N");
  survey_cmd->add_flag("--no-pin", survey.split.no_pin, "cuda engine: leave each GPU's host thread unpinned");

  app.add_subcommand("engines", "List the compute engines and whether each can run here");
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) command->group("Commands");
  // After the commands: each would inherit it.
  app.footer(
      "Run 'yeex <command> --help' for the options of a command. Decks: inputs/ has examples, "
      "docs/decks.md every key.\n\n"
      "yeex-p2p, built beside yeex, measures the interconnect itself (GPU-to-GPU bandwidth and "
      "latency, copy engines, SM copies, host staging, NCCL): yeex-p2p --help.");

  if (auto why = unknown_command(app, argc, argv); why || (why = empty_list_element(app, argc, argv))) {
    if (root) std::fprintf(stderr, "yeex: %s\n", why->c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // MPI mode: the ranks have the same arguments, so they all fail alike; rank 0 tells.
    if (e.get_exit_code() == 0) return root ? app.exit(e) : 0;  // --help, --version
    if (root) std::fprintf(stderr, "yeex: %s\n", parse_error_message(e).c_str());
    return 2;
  }

  // The YEEX_ environment variables (src/runtime/environment.hpp): a bad value stops the run, an
  // unknown name is warned about.
  try {
    for (const std::string& warning : check_yeex_environment())
      if (root) std::fprintf(stderr, "yeex: warning: %s\n", warning.c_str());
  } catch (const std::invalid_argument& e) {
    if (root) std::fprintf(stderr, "yeex: %s\n", e.what());
    return 2;
  }

  const EngineRuntimes runtimes;  // before any engine, gone after the last
  try {
    if (*run_cmd && run.split.exchange == "list") {
      run.split.exchange.clear();
      return exchanges_command(run.split, world);
    }
    if (*exchanges_cmd) return exchanges_command(list_split, world);
    if (*bench_cmd && (bench.split.exchange == "list" || bench.exchanges == std::vector<std::string>{"list"})) {
      bench.split.exchange.clear();
      return exchanges_command(bench.split, world);
    }
    if (*validate_cmd && validate.split.exchange == "list") {
      validate.split.exchange.clear();
      return exchanges_command(validate.split, world);
    }
    if (*run_cmd) {
      if (!deck.empty()) run.deck = deck;
      if (!output.empty()) run.output = output;
      if (steps > 0) run.steps = steps;
      if (!trace_path.empty()) run.trace = trace_path;
      if (!checkpoint_dir.empty()) run.checkpoint_dir = checkpoint_dir;
      if (!resume.empty()) run.resume = resume;
      return run_command(run, world);
    }
    if (*validate_cmd) {
      if (world) {  // the same answer on every rank: no rank waits for another
        if (root) std::fprintf(stderr, "yeex: validate runs in one process (threads mode); start it without mpirun\n");
        return 2;
      }
      if (!validate_json.empty()) validate.json = validate_json;
      return validate_command(validate);
    }
    if (*bench_cmd) {
      if (!json_path.empty()) bench.json = json_path;
      if (!markdown_path.empty()) bench.markdown = markdown_path;
      if (!p2p_json_path.empty()) bench.p2p_json = p2p_json_path;
      if (!bench_deck_path.empty()) bench.deck = bench_deck_path;
      if (!bench_trace_path.empty()) bench.trace = bench_trace_path;
      return bench_command(bench, world);
    }
    if (*survey_cmd) {
      if (world) {
        if (root) std::fprintf(stderr, "yeex: survey runs in one process (threads mode); start it without mpirun\n");
        return 2;
      }
      if (!survey_output.empty()) survey.output = survey_output;
      if (!survey_from.empty()) survey.from = survey_from;
      if (!survey_what_if.empty()) survey.what_if = survey_what_if;
      return survey_command(survey);
    }
    return root ? engines_command() : 0;
  } catch (const AgreedExit& e) {
    return e.code();                   // MPI mode: every rank stops; rank 0 said why
  } catch (const RunInterrupted& e) {  // every rank stopped after the same chunk: no abort
    if (root) std::fprintf(stderr, "yeex: %s\n", e.what());
    return e.exit_code();
  } catch (...) {
    const GroupProblem problem = describe_current_exception(world ? world->rank() : 0);
    std::fprintf(stderr, "yeex: %s\n", problem.message.c_str());
    std::fflush(stderr);
    // MPI mode: one rank failed on its own; the others may wait for it in the middle of a step.
    if (world && world->size() > 1) world->abort(problem.exit_code);
    return problem.exit_code;
  }
}

// What was printed must reach stdout (yeex run --json > /dev/full): a failed write is an I/O
// error, exit 1, said on stderr.
int main(int argc, char** argv) {
  const int code = yeex_main(argc, argv);
  if (code != 0) return code;  // the failure was reported
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && !std::ferror(stdout)) return code;
  std::fprintf(stderr, "yeex: cannot write to standard output: %s\n",
               flushed ? "an earlier write failed" : std::strerror(errno));
  return 1;
}
