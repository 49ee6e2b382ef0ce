// yeex command line: run a deck, benchmark an engine, list engines.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <map>

#include "io/deck.hpp"
#include "src/app/commands.hpp"
#include "src/runtime/build_info.hpp"

int main(int argc, char** argv) {
  using namespace yeex;
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"yeex: reproducible multi-GPU FDTD (Yee) Maxwell solver"};
  app.set_version_flag("--version", std::string("yeex ") + kYeexVersion + " (" + kGitCommit + ")");
  app.require_subcommand(1);
  const std::vector<std::string> engines{"host", "cuda"};
  const std::vector<std::string> precisions{"f32", "f64"};

  const std::vector<std::string> exchanges{"host-staged", "p2p", "overlap", "coop", "b2r", "nccl", "list"};
  // The options that say how a run is split, shared by `run` and `exchanges`.
  const auto add_split_options = [&](CLI::App* cmd, SplitOptions& split) {
    cmd->add_option("--engine", split.engine, "Compute engine (default: cuda when a GPU is visible, else host)")
        ->check(CLI::IsMember(engines));
    cmd->add_option("--exchange", split.exchange, "Halo exchange backend ('list' shows which can run here)")
        ->check(CLI::IsMember(exchanges));
    cmd->add_option("--gpus", split.gpus, "cuda engine: use the first N visible GPUs (default: all)")->check(CLI::PositiveNumber);
    cmd->add_option("--devices", split.devices, "cuda engine: these GPUs, e.g. 0,2 (one z-slab each, in this order)")
        ->delimiter(',')
        ->excludes("--gpus");
    cmd->add_option("--subdomains", split.subdomains, "host engine: split into N z-slabs")->check(CLI::PositiveNumber);
    cmd->add_flag("--no-peer", split.no_peer, "cuda engine: never enable peer access (host-staged paths only)");
    cmd->add_option("--halo-depth", split.halo_depth, "Ghost planes R; R > 1 exchanges every R steps (B+2R)")
        ->check(CLI::Range(Index(1), Index(64)));
  };

  RunOptions run;
  run.command_line = command_line;
  std::string deck;
  std::string output;
  Index steps = 0;
  auto* run_cmd = app.add_subcommand("run", "Run a deck (with no deck: a dipole in a PEC box with a dielectric block)");
  run_cmd->add_option("deck", deck, "Input deck (TOML); see the README's 'The input deck'")->check(CLI::ExistingFile);
  add_split_options(run_cmd, run.split);
  run_cmd->add_option("--precision", run.precision, "Field precision")->check(CLI::IsMember(precisions))->capture_default_str();
  run_cmd->add_option("--steps", steps, "Override the deck's number of time steps")->check(CLI::PositiveNumber);
  run_cmd->add_option("--output", output, "Output folder (overrides output.directory)");
  run_cmd->add_flag("--json", run.json, "Print run.json on stdout instead of the summary");
  run_cmd->add_flag("--quiet,-q", run.quiet, "No progress line and no summary");
  run_cmd->add_flag("--dry-run", run.dry_run, "Check the deck, the split and the memory, print the plan, run nothing");

  SplitOptions list_split;
  auto* exchanges_cmd = app.add_subcommand("exchanges", "List the halo exchange backends and whether each can run here");
  add_split_options(exchanges_cmd, list_split);

  BenchOptions bench;
  bench.command_line = command_line;
  std::string json_path;
  auto* bench_cmd = app.add_subcommand("bench", "Time the step loop per exchange backend and device count (strong/weak scaling)");
  add_split_options(bench_cmd, bench.split);
  bench_cmd->add_option("--exchanges", bench.exchanges, "Backends to compare, e.g. p2p,overlap (default: all)")->delimiter(',');
  bench_cmd->add_option("--counts", bench.counts, "Device (or host slab) counts, e.g. 1,2,4 (default: 1 and powers of 2)")
      ->delimiter(',');
  bench_cmd->add_option("--scaling", bench.scaling, "strong (fixed global grid), weak (size^3 per device) or both")
      ->check(CLI::IsMember({"strong", "weak", "both"}))->capture_default_str();
  bench_cmd->add_option("--precision", bench.precision, "Field precision")->check(CLI::IsMember(precisions))->capture_default_str();
  bench.sizes.clear();
  std::string bench_deck_path;
  bench_cmd->add_option("--deck", bench_deck_path,
                        "Bench this deck's model (e.g. inputs/bench_box.toml) instead of the built-in box, stretched onto "
                        "each --size (default: the deck's own size)")
      ->check(CLI::ExistingFile);
  bench_cmd->add_option("--size", bench.sizes, "Cube edge(s) in cells (default 256, or the --deck's nx)")
      ->check(CLI::Range(Index(8), Index(4096)));
  bench_cmd->add_option("--steps", bench.steps, "Steps per timed repeat")->check(CLI::Range(Index(1), Index(1000000)))->capture_default_str();
  bench_cmd->add_option("--warmup", bench.warmup, "Untimed steps first")->check(CLI::Range(Index(0), Index(1000000)))->capture_default_str();
  bench_cmd->add_option("--repeats", bench.repeats, "Timed repeats (the median is reported)")->check(CLI::Range(1, 1000))->capture_default_str();
  bench_cmd->add_option("--json", json_path, "Also write the results as JSON to this file");
  bench_cmd->add_flag("--csv", bench.csv, "CSV on stdout instead of the table");

  ValidateOptions validate;
  validate.command_line = command_line;
  std::string validate_json;
  auto* validate_cmd = app.add_subcommand("validate", "Built-in problems with known answers: measured vs reference, PASS/FAIL");
  add_split_options(validate_cmd, validate.split);
  validate_cmd->add_option("--precision", validate.precision, "Field precision (the energy check always uses f64)")
      ->transform(CLI::IsMember(std::map<std::string, std::string>{{"f32", "f32"}, {"32", "f32"}, {"f64", "f64"}, {"64", "f64"}}))
      ->capture_default_str();
  validate_cmd->add_flag("--quick", validate.quick, "Small sizes that run in seconds on a CPU (what CI runs)");
  validate_cmd->add_option("--only", validate.only, "Run only these problems: cavity, energy, propagation, dipole")
      ->delimiter(',');
  validate_cmd->add_option("--json", validate_json, "Also write the results as JSON to this file");

  app.add_subcommand("engines", "List the compute engines and whether each can run here");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (*run_cmd && run.split.exchange == "list") {
      run.split.exchange.clear();
      return exchanges_command(run.split);
    }
    if (*exchanges_cmd) return exchanges_command(list_split);
    if (*validate_cmd && validate.split.exchange == "list") {
      validate.split.exchange.clear();
      return exchanges_command(validate.split);
    }
    if (*run_cmd) {
      if (!deck.empty()) run.deck = deck;
      if (!output.empty()) run.output = output;
      if (steps > 0) run.steps = steps;
      return run_command(run);
    }
    if (*validate_cmd) {
      if (!validate_json.empty()) validate.json = validate_json;
      return validate_command(validate);
    }
    if (*bench_cmd) {
      if (!json_path.empty()) bench.json = json_path;
      if (!bench_deck_path.empty()) bench.deck = bench_deck_path;
      return bench_command(bench);
    }
    return engines_command();
  } catch (const DeckError& e) {
    std::fprintf(stderr, "yeex: error in deck: %s\n", e.what());
    return 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "yeex: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "yeex: run failed: %s\n", e.what());
    return 1;
  }
}
