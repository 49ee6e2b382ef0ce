// The output folder of a run and the files of bench and validate: checked before any work (bad
// input: UsageError, exit 2, nothing written), and a folder never mixes the files of two runs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace yeex {

// Throws UsageError unless `dir` exists as a writable folder or can be created, and none of
// `files`, the names the command writes into it, is a folder there or too long a name.
void check_output_directory(const std::filesystem::path& dir, const std::vector<std::string>& files = {});
// The output folder of a run, which io/atomic_file.hpp's StagedFolder puts in place: what
// check_output_directory checks, and, where the folder exists, that its parent lets the run
// replace it (writable, not append-only, not another user's in a sticky folder, not a mount point).
void check_run_output_folder(const std::filesystem::path& dir, const std::vector<std::string>& files);
// The same for one file (--json FILE): its folder may be created; the file must not be a folder.
void check_output_file(const std::filesystem::path& file, const std::string& option);

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

// The outermost folder of `dir` that does not exist yet (what create_directories(dir) makes
// first), or an empty path when `dir` exists.
std::filesystem::path first_missing_folder(const std::filesystem::path& dir);
// Removes `dir` and its parents up to `top` (first_missing_folder's answer), each only if empty;
// folders already gone are passed over.
void remove_empty_folders(const std::filesystem::path& dir, const std::filesystem::path& top);

}  // namespace yeex
