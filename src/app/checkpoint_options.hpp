// `yeex run --checkpoint-every`, `--checkpoint-dir` and `--resume`: the options into a
// CheckpointConfig, and what a resume takes from its checkpoint (the deck, the steps, the
// precision, the output folder), each refusal a UsageError naming the problem (exit 2) before
// anything is written. docs/running.md#checkpoints-and-resuming.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "io/checkpoint.hpp"
#include "io/deck.hpp"
#include "src/app/commands.hpp"
#include "src/solver/run_config.hpp"

namespace yeex {

// --checkpoint-every: a whole number of steps ("500") or a wall time ("90s", "30m", "2h").
struct CheckpointInterval {
  Index steps = 0;
  double seconds = 0;
  std::string text;  // as given
};
CheckpointInterval parse_checkpoint_interval(const std::string& text);

// The checkpoint --resume names, opened and read: its header and the run's record.
struct ResumeSource {
  std::filesystem::path file;
  CheckpointHeader header;
  nlohmann::json run;  // CheckpointHeader::run_json
};
ResumeSource open_resume(const std::filesystem::path& path);

// The deck of a resumed run: the checkpoint's, with its step count (or --steps); a DECK given
// beside --resume must be that deck. Sets the precision the run takes (the checkpoint's; a
// --precision that differs is refused).
Deck resumed_deck(const ResumeSource& source, const RunOptions& options, std::string& precision);

// The checkpoint settings of a run into `output_dir`: the file, the interval, what the
// checkpoint records. Checks that the folder holds no other run's checkpoint (unless --force or
// it is the one resumed from).
CheckpointConfig checkpoint_config(const RunOptions& options, const Deck& deck, const std::string& deck_text,
                                   const std::string& deck_origin, const std::string& precision,
                                   const std::optional<ResumeSource>& resume);

// Before the first step: the checkpoint folder made, unfinished checkpoint files of processes
// that are gone removed.
void prepare_checkpoint_folder(const CheckpointConfig& config);

// After the run's folder is in place: its checkpoint is no longer needed (the file, then the
// folder when empty).
void remove_checkpoint(const CheckpointConfig& config);

}  // namespace yeex
