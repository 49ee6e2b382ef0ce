#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <iostream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "io/deck.hpp"
#include "src/app/checkpoint_options.hpp"
#include "src/app/commands.hpp"
#include "src/app/mpi_mode.hpp"
#include "src/app/run_report.hpp"
#include "src/app/split_options.hpp"
#include "src/exchange/registry.hpp"
#include "src/plan/memory_limits.hpp"
#include "src/plan/run_plan.hpp"
#include "src/runtime/interrupts.hpp"
#include "src/runtime/mpi_launch.hpp"
#include "src/runtime/provenance.hpp"
#include "src/runtime/trace.hpp"
#include "src/solver/checkpointing.hpp"
#include "src/solver/engines.hpp"
#include "src/solver/solver.hpp"

namespace yeex {
namespace {

// --trace: the run's trace into `file` (atomically), and what tracing cost on stderr.
void write_trace(Trace& trace, const std::filesystem::path& file, const Model& model, const RunResult& result,
                 bool quiet) {
  trace.set_metadata("deck", model.deck.title);
  trace.set_metadata("engine", result.engine);
  trace.set_metadata("backend", result.exchange);
  trace.set_metadata("subdomains", result.subdomains);
  trace.set_metadata("grid", {model.grid.nx, model.grid.ny, model.grid.nz});
  trace.set_metadata("precision", result.precision_bits == 64 ? "f64" : "f32");
  trace.set_metadata("provenance", provenance());
  write_text_atomically(file, trace.json().dump() + "\n");
  if (quiet) return;
  const auto per_step = [](double seconds, Index steps) { return steps > 0 ? seconds / steps : 0.0; };
  std::fprintf(stderr, "yeex: %s\n",
               trace_summary(trace, per_step(result.traced_seconds, result.traced_steps),
                             per_step(result.untraced_seconds, result.untraced_steps), file.string())
                   .c_str());
}

}  // namespace

int run_command(const RunOptions& o, const ProcessGroup* world) {
  const SingleProcessGroup alone;
  const ProcessGroup& group = world ? *world : alone;
  const bool root = group.rank() == 0;
  agreed(world, [&] {
    if (world && (o.resume || !o.checkpoint_every.empty()))
      throw UsageError("--checkpoint-every and --resume run in threads mode (start yeex without mpirun)");
  });
  // --resume: the deck, its steps, the precision and the output folder come from the checkpoint.
  const std::optional<ResumeSource> resume =
      o.resume ? std::optional<ResumeSource>(open_resume(*o.resume)) : std::nullopt;
  std::string precision = o.precision.empty() ? "f32" : o.precision;
  // Rank 0 reads the deck; every rank parses rank 0's text (the file need exist on rank 0 only).
  const std::string text =
      resume ? resume->header.deck_text
             : broadcast_string(
                   group, agreed(world, [&] { return o.deck && root ? read_deck_file(*o.deck) : std::string(); }));
  const std::string origin = resume ? resume->header.deck_origin : o.deck ? o.deck->string() : std::string();
  Deck deck = agreed(world, [&] {
    if (resume) return resumed_deck(*resume, o, precision);
    return o.deck ? parse_deck_string(text, o.deck->string()) : default_deck();
  });
  if (!o.quiet && root)
    for (const std::string& warning : deck.warnings) std::cerr << "yeex: " << warning << "\n";
  agreed(world, [&] {
    if (o.steps && !resume) {
      if (*o.steps < 1 || *o.steps > kMaxSteps)
        throw UsageError("--steps must be from 1 to " + std::to_string(kMaxSteps) + ", got " +
                         std::to_string(*o.steps));
      deck.steps = *o.steps;
      deck.duration.reset();
    }
  });
  if (o.output && !resume) deck.output_dir = o.output->string();
  // The run, planned once: every decision and every check before anything is written.
  PlanRequest request;
  request.split = resolve_any_split(o.split, world);
  request.precision_bits = precision_bits(precision);
  request.checkpoint = checkpoint_config(o, deck, text, origin, precision, resume);
  request.check_every = o.check_every;
  request.progress = root && !o.quiet && !o.json;
  request.output_files = run_output_files(deck);
  const std::filesystem::path out = deck.output_dir;
  RunPlan plan;
  MemoryLimits limits;
  OutputFolderContents earlier;  // rank 0: what the output folder holds before the run
  agreed(world, [&] {
    try {
      plan = make_run_plan(deck, request);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    limits = read_memory_limits();
    if (plan.engine == "cuda") limits.device_free = available_memory("cuda", plan.config.devices.front());
    if (const auto why = memory_refusal(plan, limits)) throw UsageError(*why);
    if (resume) {  // the checkpoint's structure against the run's, before anything is written
      try {
        check_checkpoint_fits(CheckpointReader(resume->file), deck, plan.precision_bits);
      } catch (const CheckpointError& e) {
        throw UsageError(std::string("--resume: ") + e.what());
      }
    }
    if (root) {
      check_run_output_folder(out, plan.output_files);
      earlier = output_folder_contents(out);
      check_output_folder_is_free(out, earlier, o.force);
      plan.force_removes = earlier.earlier_run;
    }
  });
  // The model's own checks (materials, material combinations, sources in PEC) hold for a dry run
  // too; a dry run's model has no source samples, so that it costs nothing per step.
  const Model model = agreed(world, [&] { return build_model(deck, !o.dry_run); });
  std::optional<Trace> trace;  // --trace: its window checked before anything is written
  agreed(world, [&] {
    if (!o.trace) return;
    if (world) throw UsageError("--trace: threads mode only (start yeex without mpirun)");
    try {
      const auto [first, count] = trace_window(o.trace_steps, model.steps);
      trace.emplace(first, count);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (root) check_output_file(*o.trace, "--trace");
  });
  if (o.dry_run) {
    if (root && o.json)
      std::cout << plan_json(plan, limits).dump(2) << "\n";
    else if (root)
      std::fputs(plan_text(plan, limits).c_str(), stdout);
    return 0;
  }
  // The output is staged beside the folder and put in place whole at the end (io/atomic_file.hpp).
  const std::filesystem::path made = first_missing_folder(out);  // empty: the folder exists
  std::optional<StagedFolder> staged;                            // rank 0
  const CheckpointConfig& checkpoint = plan.config.checkpoint;
  const std::filesystem::path made_checkpoint =
      checkpoint.file ? first_missing_folder(checkpoint.file->parent_path()) : std::filesystem::path();
  const auto discard = [&] {  // a failed run leaves no staging folder and no folder it made
    staged.reset();
    if (root) remove_empty_folders(out, made);
    // its last checkpoint stays, for --resume
    if (root && checkpoint.file) remove_empty_folders(checkpoint.file->parent_path(), made_checkpoint);
  };
  agreed(world, [&] {
    if (!root) return;
    for (const std::string& note : clean_stale_staging(out))
      if (!o.quiet) std::fprintf(stderr, "yeex: %s\n", note.c_str());
    try {
      staged.emplace(out);
      prepare_checkpoint_folder(checkpoint);
    } catch (...) {
      discard();
      throw;
    }
  });
  RunConfig config = plan.config;
  if (trace) config.trace = &*trace;
  const std::string& engine = plan.engine;
  config.output_dir = root ? staged->path() : out;
  try {
    const InterruptWatch watch;  // Ctrl-C: stop after the current chunk; the staging folder goes
    const RunResult result = [&] {
      try {
        return run_model(model, config);
      } catch (const CheckpointError& e) {  // a checkpoint whose data cannot be read: bad input
        throw UsageError(std::string("--resume: ") + e.what());
      }
    }();
    const nlohmann::json ranks = world ? rank_table(*world, engine == "cuda" ? config.devices.front() : -1) : nullptr;
    if (!root) return 0;
    nlohmann::json report = run_report(model, result, o.command_line);
    report["run"]["mode"] = world ? "mpi" : "threads";
    if (world) {
      report["mpi"] = mpi_report(ranks);
      report["mpi"]["halo_path"] = halo_path(config, result.exchange);
      if (engine == "cuda") {
        report["run"]["devices"] = nlohmann::json::array();
        for (const auto& r : ranks) report["run"]["devices"].push_back(r["gpu"]["index"]);
      }
    }
    write_text_atomically(staged->path() / kRunReportName, report.dump(2) + "\n");  // last: the run is complete
    if (o.json) {  // before the commit: a report that cannot be printed fails the run
      std::cout << report.dump(2) << "\n" << std::flush;
      if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
        throw std::runtime_error(std::string("cannot write run.json to standard output: ") + std::strerror(errno));
    }
    if (const int signal = interrupt_signal()) throw RunInterrupted(signal, result.steps, result.steps);
    std::vector<std::string> carried;  // --force: files yeex did not write stay in the folder
    for (std::string name : earlier.other) {
      if (name.ends_with('/')) name.pop_back();
      carried.push_back(name);
    }
    const std::string warning = staged->commit(carried);
    remove_checkpoint(checkpoint);
    if (!warning.empty()) std::fprintf(stderr, "yeex: warning: %s\n", warning.c_str());
    if (trace) write_trace(*trace, *o.trace, model, result, o.quiet);
    if (!o.quiet && !earlier.earlier_run.empty())
      std::fprintf(stderr, "yeex: --force: removed the %zu file(s) of an earlier run from %s\n",
                   earlier.earlier_run.size(), out.string().c_str());
    if (!o.json && !o.quiet) {
      print_run_summary(model, result, &out);
      if (world)
        std::printf("  mpi       %d ranks, %s, halos: %s\n", group.size(), mpi_library_version().c_str(),
                    report["mpi"]["halo_path"].get<std::string>().c_str());
    }
  } catch (...) {
    discard();
    throw;
  }
  return 0;
}

}  // namespace yeex
