// yeex command line: run a deck, benchmark an engine, list engines. Started by mpirun, yeex
// runs in MPI mode (src/app/mpi_mode.hpp): MPI lives from here to the end of main.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <optional>

#include "io/deck.hpp"
#include "src/app/commands.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/runtime/build_info.hpp"
#include "src/runtime/mpi_launch.hpp"

int main(int argc, char** argv) {
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

  CLI::App app{"yeex: reproducible multi-GPU FDTD (Yee) Maxwell solver"};
  app.set_version_flag("--version", std::string("yeex ") + kYeexVersion + " (" + kGitCommit + ")");
  app.require_subcommand(1);
  const std::vector<std::string> engines{"host", "cuda"};
  const std::vector<std::string> precisions{"f32", "f64"};

  const std::vector<std::string> exchanges{"host-staged", "p2p", "overlap", "coop", "b2r", "nccl", "mpi", "list"};
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
    cmd->add_flag("--oversubscribe-gpus", split.oversubscribe_gpus,
                  "MPI mode: let several ranks of a node share one GPU (refused otherwise)");
  };

  RunOptions run;
  run.command_line = command_line;
  std::string deck;
  std::string output;
  Index steps = 0;
  auto* run_cmd = app.add_subcommand("run", "Run a deck (with no deck: a dipole in a PEC box with a dielectric block)");
  auto* deck_option = run_cmd->add_option("deck", deck, "Input deck (TOML); see the README's 'The input deck'");
  if (!world) deck_option->check(CLI::ExistingFile);  // MPI mode: rank 0 reads it, the others need not see it
  add_split_options(run_cmd, run.split);
  run_cmd->add_option("--precision", run.precision, "Field precision")->check(CLI::IsMember(precisions))->capture_default_str();
  run_cmd->add_option("--steps", steps, "Override the deck's number of time steps")->check(CLI::PositiveNumber);
  run_cmd->add_option("--output", output, "Output folder (overrides output.directory)");
  run_cmd->add_flag("--json", run.json, "Print run.json on stdout instead of the summary");
  run_cmd->add_flag("--quiet,-q", run.quiet, "No progress line and no summary");

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
  bench_cmd->add_option("--size", bench.sizes, "Cube edge(s) in cells")->check(CLI::Range(Index(8), Index(4096)))->capture_default_str();
  bench_cmd->add_option("--steps", bench.steps, "Steps per timed repeat")->check(CLI::Range(Index(1), Index(1000000)))->capture_default_str();
  bench_cmd->add_option("--warmup", bench.warmup, "Untimed steps first")->check(CLI::Range(Index(0), Index(1000000)))->capture_default_str();
  bench_cmd->add_option("--repeats", bench.repeats, "Timed repeats (the median is reported)")->check(CLI::Range(1, 1000))->capture_default_str();
  bench_cmd->add_option("--json", json_path, "Also write the results as JSON to this file");
  bench_cmd->add_flag("--csv", bench.csv, "CSV on stdout instead of the table");

  app.add_subcommand("engines", "List the compute engines and whether each can run here");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // MPI mode: the ranks have the same arguments, so they all fail alike; rank 0 tells.
    const int code = root ? app.exit(e) : e.get_exit_code();
    return code == 0 ? 0 : 2;
  }

  try {
    if (*run_cmd && run.split.exchange == "list") {
      run.split.exchange.clear();
      return exchanges_command(run.split, world);
    }
    if (*exchanges_cmd) return exchanges_command(list_split, world);
    if (*run_cmd) {
      if (!deck.empty()) run.deck = deck;
      if (!output.empty()) run.output = output;
      if (steps > 0) run.steps = steps;
      return run_command(run, world);
    }
    if (*bench_cmd) {
      if (!json_path.empty()) bench.json = json_path;
      return bench_command(bench, world);
    }
    return root ? engines_command() : 0;
  } catch (const AgreedExit& e) {
    return e.code();  // MPI mode: every rank stops; rank 0 said why
  } catch (...) {
    const GroupProblem problem = describe_current_exception(world ? world->rank() : 0);
    std::fprintf(stderr, "yeex: %s\n", problem.message.c_str());
    std::fflush(stderr);
    // MPI mode: one rank failed on its own; the others may wait for it in the middle of a step.
    if (world && world->size() > 1) world->abort(problem.exit_code);
    return problem.exit_code;
  }
}
