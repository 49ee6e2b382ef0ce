#include "src/app/checkpoint_options.hpp"

#include <signal.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "src/runtime/build_info.hpp"

namespace yeex {
namespace {

constexpr const char* kRunFormat = "yeex-checkpoint-run-1";

std::string grid_text(const GridShape& g) {
  return std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " + std::to_string(g.nz);
}

// Unfinished checkpoint files (NAME.partial-PID) of processes that are gone.
void remove_stale_partials(const std::filesystem::path& folder) {
  std::error_code ec;
  const std::string prefix = std::string(kCheckpointFileName) + ".partial-";
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    if (::kill(static_cast<pid_t>(std::stol(digits)), 0) != 0 && errno == ESRCH)
      std::filesystem::remove(it->path(), ec);
  }
}

}  // namespace

CheckpointInterval parse_checkpoint_interval(const std::string& text) {
  const std::string why =
      "--checkpoint-every '" + text + "': give a number of steps (500) or a wall time (90s, 30m, 2h), above 0";
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 12) throw UsageError(why);
  const long long value = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  CheckpointInterval interval;
  interval.text = text;
  if (value <= 0) throw UsageError(why);
  if (unit.empty()) {
    if (value > kMaxSteps) throw UsageError(why);
    interval.steps = value;
  } else if (unit == "s" || unit == "m" || unit == "h") {
    interval.seconds = double(value) * (unit == "s" ? 1 : unit == "m" ? 60 : 3600);
  } else {
    throw UsageError(why);
  }
  return interval;
}

ResumeSource open_resume(const std::filesystem::path& path) {
  ResumeSource source;
  source.file = checkpoint_file_in(path);
  try {
    const CheckpointReader reader(source.file);
    source.header = reader.header();
  } catch (const CheckpointError& e) {
    throw UsageError(std::string("--resume: ") + e.what());
  }
  source.run = nlohmann::json::parse(source.header.run_json, nullptr, false);
  if (!source.run.is_object() || source.run.value("format", "") != kRunFormat || !source.run.contains("output") ||
      !source.run["output"].is_string())
    throw UsageError("--resume: checkpoint " + source.file.string() + ": its record of the run is damaged");
  return source;
}

Deck resumed_deck(const ResumeSource& source, const RunOptions& o, std::string& precision) {
  const CheckpointHeader& h = source.header;
  const std::string origin = h.deck_origin.empty() ? source.file.string() : h.deck_origin;
  Deck deck;
  try {
    deck = h.deck_text.empty() && h.deck_origin.empty() ? default_deck() : parse_deck_string(h.deck_text, origin);
  } catch (const DeckError& e) {
    throw UsageError("--resume: checkpoint " + source.file.string() + ": its deck is not valid: " + e.what());
  }
  if (o.deck) {  // must be the deck of the checkpoint, as resolved
    const Deck given = parse_deck_file(*o.deck);
    if (given.grid.nx != deck.grid.nx || given.grid.ny != deck.grid.ny || given.grid.nz != deck.grid.nz)
      throw UsageError("--resume: checkpoint " + source.file.string() + " holds a grid of " + grid_text(deck.grid) +
                       " cells, " + o.deck->string() + " one of " + grid_text(given.grid) +
                       "; with --resume the deck comes from the checkpoint (leave DECK out)");
    nlohmann::json a = deck.to_json(), b = given.to_json();
    a.erase("output"), b.erase("output");
    const nlohmann::json patch = nlohmann::json::diff(a, b);
    if (!patch.empty())
      throw UsageError("--resume: " + o.deck->string() + " is not the deck checkpoint " + source.file.string() +
                       " was written from (they differ at " + patch[0].value("path", std::string("?")) +
                       "); with --resume the deck comes from the checkpoint (leave DECK out)");
  }
  deck.steps = h.steps;
  deck.duration.reset();
  if (o.steps) {
    if (*o.steps <= h.step || *o.steps > kMaxSteps)
      throw UsageError("--steps " + std::to_string(*o.steps) + " with --resume: checkpoint " + source.file.string() +
                       " holds step " + std::to_string(h.step) + ", so the run needs more steps than that (at most " +
                       std::to_string(kMaxSteps) + ")");
    deck.steps = *o.steps;
  }
  const std::string held = h.precision_bits == 64 ? "f64" : "f32";
  if (!o.precision.empty() && o.precision != held)
    throw UsageError("--precision " + o.precision + " with --resume: checkpoint " + source.file.string() + " holds " +
                     held + " fields; a run resumes in the precision it started in (--precision " + held + ")");
  precision = held;
  deck.output_dir = source.run["output"].get<std::string>();
  if (o.output) deck.output_dir = o.output->string();
  return deck;
}

CheckpointConfig checkpoint_config(const RunOptions& o, const Deck& deck, const std::string& deck_text,
                                   const std::string& deck_origin, const std::string& precision,
                                   const std::optional<ResumeSource>& resume) {
  CheckpointConfig c;
  std::string every = o.checkpoint_every;
  if (every.empty() && resume) every = resume->run.value("checkpoint_every", std::string());
  if (resume) c.resume = resume->file;
  if (every.empty()) {
    if (o.checkpoint_dir)
      throw UsageError("--checkpoint-dir needs --checkpoint-every (or --resume of a run that had it)");
    return c;
  }
  const CheckpointInterval interval = parse_checkpoint_interval(every);
  c.every_steps = interval.steps;
  c.every_seconds = interval.seconds;
  const std::filesystem::path folder = o.checkpoint_dir              ? *o.checkpoint_dir
                                       : resume && !o.checkpoint_dir ? resume->file.parent_path()
                                                                     : default_checkpoint_folder(deck.output_dir);
  c.file = (folder.empty() ? std::filesystem::path(".") : folder) / kCheckpointFileName;
  std::error_code ec;
  if (std::filesystem::exists(folder, ec) && !std::filesystem::is_directory(folder, ec))
    throw UsageError("checkpoint folder '" + folder.string() + "' is a file, not a folder (--checkpoint-dir DIR)");
  const bool same = resume && std::filesystem::equivalent(resume->file, *c.file, ec);
  if (!same && !o.force && std::filesystem::exists(*c.file, ec))
    throw UsageError("checkpoint folder '" + folder.string() +
                     "' holds the checkpoint of an earlier run: resume it (yeex run --resume " + folder.string() +
                     "), name another folder (--checkpoint-dir DIR), or pass --force to replace it");
  c.deck_text = deck_text;
  c.deck_origin = deck_origin;
  const std::filesystem::path output = std::filesystem::absolute(deck.output_dir, ec);
  c.run_json = nlohmann::json{{"format", kRunFormat},
                              {"output", output.string()},
                              {"steps", deck.step_count()},
                              {"precision", precision},
                              {"checkpoint_every", interval.text},
                              {"command", o.command_line},
                              {"build",
                               {{"version", kYeexVersion},
                                {"commit", kGitCommit},
                                {"compiler", kCompiler},
                                {"build_type", kBuildType},
                                {"cuda", kCudaBuild}}}}
                   .dump();
  return c;
}

void prepare_checkpoint_folder(const CheckpointConfig& c) {
  if (!c.file) return;
  std::filesystem::create_directories(c.file->parent_path());
  remove_stale_partials(c.file->parent_path());
}

void remove_checkpoint(const CheckpointConfig& c) {
  std::error_code ec;
  if (c.file) {
    std::filesystem::remove(*c.file, ec);
    std::filesystem::remove(c.file->parent_path(), ec);  // only when empty
  }
  if (c.resume && (!c.file || !std::filesystem::equivalent(c.resume->parent_path(), c.file->parent_path(), ec))) {
    // a checkpoint resumed from and not rewritten: its run is complete
    std::filesystem::remove(*c.resume, ec);
    std::filesystem::remove(c.resume->parent_path(), ec);
  }
}

}  // namespace yeex
