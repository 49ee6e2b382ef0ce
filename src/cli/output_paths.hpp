// Output paths checked before any work (bad input: UsageError, exit 2, nothing written): the
// output folder of a run and the files of bench, validate and yeex-p2p (--json, --markdown).
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

// The outermost folder of `dir` that does not exist yet (what create_directories(dir) makes
// first), or an empty path when `dir` exists.
std::filesystem::path first_missing_folder(const std::filesystem::path& dir);
// Removes `dir` and its parents up to `top` (first_missing_folder's answer), each only if empty;
// folders already gone are passed over.
void remove_empty_folders(const std::filesystem::path& dir, const std::filesystem::path& top);

// Why a new `file` could not be renamed into `dir` over what is there, or "" when it can (the
// sticky bit, immutable or append-only files).
std::string why_not_replaceable(const std::filesystem::path& dir, const std::string& file);

}  // namespace yeex
