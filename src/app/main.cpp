// yeex command line: run a deck, benchmark an engine, list engines.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

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

  RunOptions run;
  run.command_line = command_line;
  std::string deck;
  std::string output;
  Index steps = 0;
  auto* run_cmd = app.add_subcommand("run", "Run a deck (with no deck: a dipole in a PEC box with a dielectric block)");
  run_cmd->add_option("deck", deck, "Input deck (TOML); see the README's 'The input deck'")->check(CLI::ExistingFile);
  run_cmd->add_option("--engine", run.engine, "Compute engine (default: cuda when a GPU is visible, else host)")
      ->check(CLI::IsMember(engines));
  run_cmd->add_option("--precision", run.precision, "Field precision")->check(CLI::IsMember(precisions))->capture_default_str();
  run_cmd->add_option("--steps", steps, "Override the deck's number of time steps")->check(CLI::PositiveNumber);
  run_cmd->add_option("--output", output, "Output folder (overrides output.directory)");
  run_cmd->add_option("--device", run.device, "GPU ordinal for the cuda engine")->check(CLI::NonNegativeNumber)->capture_default_str();
  run_cmd->add_flag("--json", run.json, "Print run.json on stdout instead of the summary");
  run_cmd->add_flag("--quiet,-q", run.quiet, "No progress line and no summary");

  BenchOptions bench;
  bench.command_line = command_line;
  std::string json_path;
  auto* bench_cmd = app.add_subcommand("bench", "Time the Yee update on a PEC box with a dielectric block (one device)");
  bench_cmd->add_option("--engine", bench.engine, "Compute engine")->check(CLI::IsMember(engines));
  bench_cmd->add_option("--precision", bench.precision, "Field precision")->check(CLI::IsMember(precisions))->capture_default_str();
  bench_cmd->add_option("--size", bench.sizes, "Cube edge(s) in cells")->check(CLI::Range(Index(8), Index(4096)))->capture_default_str();
  bench_cmd->add_option("--steps", bench.steps, "Steps per timed repeat")->check(CLI::Range(Index(1), Index(1000000)))->capture_default_str();
  bench_cmd->add_option("--warmup", bench.warmup, "Untimed steps first")->check(CLI::Range(Index(0), Index(1000000)))->capture_default_str();
  bench_cmd->add_option("--repeats", bench.repeats, "Timed repeats (the median is reported)")->check(CLI::Range(1, 1000))->capture_default_str();
  bench_cmd->add_option("--device", bench.device, "GPU ordinal")->check(CLI::NonNegativeNumber)->capture_default_str();
  bench_cmd->add_option("--json", json_path, "Also write the results as JSON to this file");
  bench_cmd->add_flag("--csv", bench.csv, "CSV on stdout instead of the table");

  app.add_subcommand("engines", "List the compute engines and whether each can run here");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (*run_cmd) {
      if (!deck.empty()) run.deck = deck;
      if (!output.empty()) run.output = output;
      if (steps > 0) run.steps = steps;
      return run_command(run);
    }
    if (*bench_cmd) {
      if (!json_path.empty()) bench.json = json_path;
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
