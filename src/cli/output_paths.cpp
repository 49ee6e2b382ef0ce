#include "src/cli/output_paths.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "src/cli/usage_error.hpp"

namespace yeex {
namespace {

// The folders of `dir` that do not exist yet, innermost first: what create_directories(dir) would
// make, in reverse. Empty when `dir` exists.
std::vector<std::filesystem::path> missing_folders(const std::filesystem::path& dir) {
  std::error_code ec;
  std::vector<std::filesystem::path> missing;
  auto start = std::filesystem::absolute(dir, ec).lexically_normal();
  if (start.filename().empty() && start != start.root_path()) start = start.parent_path();  // "out/"
  for (auto path = start; !path.empty() && !std::filesystem::exists(path, ec); path = path.parent_path()) {
    missing.push_back(path);
    if (path.parent_path() == path) break;
  }
  return missing;
}

// The file's immutable or append-only attribute (chattr +i, +a) by name, or "" when it has none
// (or the file system keeps none). Either one stops a rename over it or out of it.
std::string locking_attribute(const std::filesystem::path& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return "";
  int flags = 0;
  const bool known = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  close(fd);
  if (known && (flags & FS_IMMUTABLE_FL)) return "immutable";
  if (known && (flags & FS_APPEND_FL)) return "append-only";
  return "";
}

// Creates and removes a file in `dir`: permissions alone do not tell for root or read-only mounts.
void try_writing(const std::filesystem::path& dir, const std::string& where) {
  const std::filesystem::path trial = dir / (".yeex-write-test-" + std::to_string(getpid()));
  const int fd = open(trial.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) throw UsageError(where + " is not writable ('" + dir.string() + "': " + std::strerror(errno) + ")");
  close(fd);
  std::error_code ec;
  std::filesystem::remove(trial, ec);
}

// Absolute, normalised, without a trailing separator, a link to a folder resolved: the folder a
// StagedFolder replaces.
std::filesystem::path normal_folder_path(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path path = fs::absolute(dir, ec).lexically_normal();
  if (path.filename().empty() && path.has_parent_path() && path != path.root_path()) path = path.parent_path();
  if (fs::is_symlink(fs::symlink_status(path, ec)) && fs::is_directory(path, ec)) path = fs::canonical(path, ec);
  return path;
}

}  // namespace

// Why the run could not rename a new `file` into `dir` over what is there, or "" when it can: in
// a folder with the sticky bit (as /tmp) only the file's owner or the folder's may (root aside);
// nobody may replace an immutable or append-only file.
std::string why_not_replaceable(const std::filesystem::path& dir, const std::string& file) {
  struct stat folder {
  }, existing{};
  if (stat(dir.c_str(), &folder) != 0 || lstat((dir / file).c_str(), &existing) != 0) return "";  // nothing there yet
  const uid_t me = geteuid();
  if ((folder.st_mode & S_ISVTX) && me != 0 && me != existing.st_uid && me != folder.st_uid)
    return "belongs to another user in a folder with the sticky bit set (as /tmp)";
  if (!S_ISREG(existing.st_mode)) return "";
  const std::string attribute = locking_attribute(dir / file);
  return attribute.empty() ? "" : "is " + attribute + " (chattr +" + attribute.substr(0, 1) + ")";
}

void check_output_directory(const std::filesystem::path& dir, const std::vector<std::string>& files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string where = "output directory '" + dir.string() + "'";
  if (dir.empty()) throw UsageError("output directory: the path is empty");
  const fs::path target = normal_folder_path(dir);
  if (fs::exists(target, ec) && !fs::is_directory(target, ec)) throw UsageError(where + " exists and is not a folder");
  // The deepest folder that exists; below it the run creates the rest.
  const auto missing = missing_folders(target);
  for (const auto& folder : missing)
    if (fs::is_symlink(fs::symlink_status(folder, ec)))
      throw UsageError(where + ": '" + folder.string() + "' is a link to '" + fs::read_symlink(folder, ec).string() +
                       "', which does not exist");
  const fs::path probe = missing.empty() ? target : missing.back().parent_path();
  if (!fs::is_directory(probe, ec)) throw UsageError(where + ": '" + probe.string() + "' is not a folder");
  const std::string folder_attribute = locking_attribute(probe);
  if (!folder_attribute.empty())
    throw UsageError(where + ": '" + probe.string() + "' is " + folder_attribute +
                     ", so the run cannot put its files in it");
  const long name_max = pathconf(probe.c_str(), _PC_NAME_MAX);
  const auto check_name = [&](const std::string& name) {
    if (name_max > 0 && static_cast<long>(name.size()) > name_max)
      throw UsageError(where + ": the name '" + name.substr(0, 40) + "...' is " + std::to_string(name.size()) +
                       " bytes long; the file system allows " + std::to_string(name_max));
  };
  for (const auto& part : target.lexically_relative(probe)) check_name(part.string());
  const long path_max = pathconf(probe.c_str(), _PC_PATH_MAX);
  for (const auto& file : files) {
    const std::string written =
        file + ".partial-" + std::to_string(getpid());  // its name at first (io/atomic_file.hpp)
    check_name(written);
    if (path_max > 0 && static_cast<long>((target / written).string().size()) >= path_max)
      throw UsageError(where + ": the path is " + std::to_string(target.string().size()) +
                       " bytes long; with the file names in it, more than the file system allows (" +
                       std::to_string(path_max) + ")");
    if (fs::is_directory(target / file, ec))
      throw UsageError(where + ": '" + (target / file).string() + "' is a folder, where the run writes the file " +
                       file);
    const std::string why = why_not_replaceable(target, file);
    if (!why.empty())
      throw UsageError(where + ": '" + (target / file).string() + "' " + why + ": it cannot be replaced");
  }
  try_writing(probe, where);
}

void check_run_output_folder(const std::filesystem::path& dir, const std::vector<std::string>& files) {
  namespace fs = std::filesystem;
  check_output_directory(dir, files);
  std::error_code ec;
  const std::string where = "output directory '" + dir.string() + "'";
  const fs::path target = normal_folder_path(dir);
  // The run writes a staging folder beside the output folder and renames it into place
  // (io/atomic_file.hpp): an existing folder is replaced as a whole, from its parent.
  const auto missing = missing_folders(target);  // none above the parent: the deepest folder there is
  const fs::path nearest = missing.empty() ? target.parent_path() : missing.back().parent_path();
  const long name_max = pathconf(nearest.c_str(), _PC_NAME_MAX);
  const std::string staging = staging_folder_of(target, getpid()).filename().string();
  if (name_max > 0 && static_cast<long>(staging.size()) > name_max)
    throw UsageError(where + ": the name '" + target.filename().string().substr(0, 40) +
                     "...' is too long for the run's staging folder beside it ('" + staging.substr(0, 60) +
                     "...'); the file system allows " + std::to_string(name_max) + " bytes");
  if (fs::exists(target, ec)) {
    if (target == target.root_path()) throw UsageError(where + ": the run cannot replace the root folder");
    const fs::path parent = target.parent_path();
    const std::string why = why_not_replaceable(parent, target.filename().string());
    if (!why.empty()) throw UsageError(where + " " + why + ": the run cannot replace it");
    const std::string parent_attribute = locking_attribute(parent);
    if (!parent_attribute.empty())
      throw UsageError(where + ": its parent '" + parent.string() + "' is " + parent_attribute +
                       ", so the run cannot put its output folder in place");
    struct stat folder {
    }, above{};
    if (stat(target.c_str(), &folder) == 0 && stat(parent.c_str(), &above) == 0 && folder.st_dev != above.st_dev)
      throw UsageError(where +
                       " is a mount point: a run's output appears by renaming a whole folder into place, "
                       "which cannot cross file systems; name a folder inside it (--output " +
                       (target / "run").string() + ")");
    try_writing(parent, where + ": its parent");
  }
}

void check_output_file(const std::filesystem::path& file, const std::string& option) {
  const std::string what = option + " " + file.string();
  std::error_code ec;
  if (file.empty()) throw UsageError(option + ": the path is empty");
  if (!file.has_filename() || std::filesystem::is_directory(file, ec))
    throw UsageError(what + ": names a folder, not a file");
  if (std::filesystem::exists(file, ec) &&
      !std::filesystem::is_regular_file(file, ec)) {  // a device or a pipe: written to
    if (access(file.c_str(), W_OK) != 0) throw UsageError(what + ": cannot be written (" + std::strerror(errno) + ")");
    return;
  }
  // Through a link, the file it names is replaced (write_text_atomically).
  const std::filesystem::path target = std::filesystem::exists(file, ec) ? std::filesystem::canonical(file, ec) : file;
  try {
    check_output_directory(target.parent_path().empty() ? "." : target.parent_path(), {target.filename().string()});
  } catch (const UsageError& e) {
    throw UsageError(what + ": " + e.what());
  }
}

std::filesystem::path first_missing_folder(const std::filesystem::path& dir) {
  const auto missing = missing_folders(dir);
  return missing.empty() ? std::filesystem::path{} : missing.back();
}

void remove_empty_folders(const std::filesystem::path& dir, const std::filesystem::path& top) {
  if (top.empty()) return;
  std::error_code ec;
  for (auto path = std::filesystem::absolute(dir, ec).lexically_normal(); !ec; path = path.parent_path()) {
    std::error_code missing;
    const bool there = std::filesystem::exists(std::filesystem::symlink_status(path, missing));
    if ((there && !std::filesystem::remove(path, ec)) || path == top || path == path.parent_path()) return;
  }
}

}  // namespace yeex
