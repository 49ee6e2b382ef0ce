// What an output folder holds: a run's folder never mixes the files of two runs. The checks of
// output paths before any work are in src/cli/output_paths.hpp.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/cli/output_paths.hpp"

namespace yeex {

// What an existing output folder holds, each list sorted by name.
struct OutputFolderContents {
  // The files an earlier yeex run left: its run.json and the files that run.json lists, probes.h5,
  // snapshots (NAME.xdmf with the NAME.h5 it names) and unfinished NAME.partial-PID files.
  std::vector<std::string> earlier_run;
  // Everything else: files and folders yeex did not write.
  std::vector<std::string> other;
  bool empty() const { return earlier_run.empty() && other.empty(); }
};
// Empty when `dir` does not exist.
OutputFolderContents output_folder_contents(const std::filesystem::path& dir);

// A run writes only into a new or empty folder: throws UsageError naming the folder, what it holds
// and --force when `dir` holds anything. With `force`, an earlier run's files are allowed (the run
// replaces the folder, and they go with it) and so are files yeex did not write (carried into the
// new folder); throws if one of the earlier run's files could not be removed.
void check_output_folder_is_free(const std::filesystem::path& dir, const OutputFolderContents& contents, bool force);

}  // namespace yeex
