// Output that appears only when complete.
//
// AtomicFile: one file, written to "NAME.partial-PID", then renamed.
// StagedFolder: a whole folder (a run's output), written to ".NAME.yeex-staging-PID" beside its
// target, then moved into place in one rename, or swapped with an earlier folder of that name
// (docs/output.md#the-run-folder-as-one-transaction). A crash or an early error leaves nothing
// that looks finished under the final name.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace yeex {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path final_path);
  ~AtomicFile();  // removes the temporary file unless commit() succeeded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Where to write while the file is incomplete.
  const std::filesystem::path& temporary_path() const { return temporary_; }
  const std::filesystem::path& final_path() const { return final_; }
  // Renames the temporary file to its final name; throws std::runtime_error on failure.
  void commit();

 private:
  std::filesystem::path final_;
  std::filesystem::path temporary_;
  bool committed_ = false;
};

// Writes `text` to `path` atomically, creating its folder if missing; through a link, to the file
// it names; a device or a pipe (/dev/stdout) is written to, not replaced.
void write_text_atomically(const std::filesystem::path& path, const std::string& text);

// The staging folder of `target` for process `pid`: ".NAME.yeex-staging-PID" in target's parent.
std::filesystem::path staging_folder_of(const std::filesystem::path& target, long pid);

// A folder written whole, then put in place under `target` at once. Missing parent folders of
// `target` are created; `target` itself may exist (an empty folder, or an earlier run's, which commit() replaces).
// A link to a folder is followed: the folder it names is replaced, the link stays.
class StagedFolder {
 public:
  explicit StagedFolder(std::filesystem::path target);  // creates the staging folder; throws
  ~StagedFolder();  // without a successful commit(): removes the staging folder and all in it
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  // Where to write until commit().
  const std::filesystem::path& path() const { return staging_; }
  const std::filesystem::path& target() const { return target_; }

  // Puts the folder in place: one rename when `target` is absent or an empty folder; else the
  // entries `carried` (names in the earlier folder that must outlive it) are moved into the new
  // folder, the two folders are exchanged in one step (renameat2 RENAME_EXCHANGE; where the file
  // system cannot, the earlier one is renamed aside first) and the earlier one is removed. On
  // failure before the new folder is in place, the earlier folder is put back as it was and the
  // error thrown (std::runtime_error naming the path and the system's reason). Returns a warning
  // when the new folder is in place but the earlier one could not be removed, else "".
  std::string commit(const std::vector<std::string>& carried = {});

 private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

// What an earlier run into `target` left beside it when it was killed: staging folders (removed)
// and earlier folders renamed aside during a swap (put back when `target` is missing, else
// removed), when the process named in them is gone; a folder of a live process is left alone. A
// staging folder holding files carried from the earlier folder is kept and named. Returns one
// sentence per folder, for the user.
std::vector<std::string> clean_stale_staging(const std::filesystem::path& target);

}  // namespace yeex
