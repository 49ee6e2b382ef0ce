#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace yeex {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStagingTag = ".yeex-staging-";
constexpr const char* kAsideTag = ".yeex-old-";
// In a staging folder: the names moved into it from the earlier folder, written before they move,
// so that a run killed in between never has them removed with its staging folder.
constexpr const char* kCarriedList = ".yeex-carried";

std::string reason(int error) { return std::strerror(error); }

[[noreturn]] void fail(const std::string& what, int error = errno) {
  throw std::runtime_error(what + ": " + reason(error));
}

fs::path sibling(const fs::path& target, const char* tag, long pid) {
  return target.parent_path() / ("." + target.filename().string() + tag + std::to_string(pid));
}

// The pid in ".NAME" + tag + "PID", or 0 when `name` is not one.
long pid_in(const std::string& name, const std::string& target_name, const std::string& tag) {
  const std::string prefix = "." + target_name + tag;
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return 0;
  const std::string digits = name.substr(prefix.size());
  if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
    return 0;
  return std::stol(digits);
}

bool process_alive(long pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

// Moves `names` from folder `from` to folder `to`; on failure moves back what had moved, throws.
void move_entries(const fs::path& from, const fs::path& to, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (::rename((from / names[i]).c_str(), (to / names[i]).c_str()) == 0) continue;
    const int error = errno;
    for (std::size_t j = 0; j < i; ++j) ::rename((to / names[j]).c_str(), (from / names[j]).c_str());
    fail("cannot move '" + (from / names[i]).string() + "' to '" + (to / names[i]).string() + "'", error);
  }
}

// The earlier folder, once replaced: removed, or a warning naming it.
std::string remove_earlier(const fs::path& earlier) {
  std::error_code ec;
  fs::remove_all(earlier, ec);
  return ec ? "the new output is in place, but the earlier folder, now '" + earlier.string() +
                  "', could not be removed (" + ec.message() + ")"
            : "";
}

bool is_empty_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && fs::is_empty(dir, ec) && !ec;
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path final_path)
    : final_(std::move(final_path)), temporary_(final_.string() + ".partial-" + std::to_string(::getpid())) {}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void AtomicFile::commit() {
  std::error_code error;
  std::filesystem::rename(temporary_, final_, error);
  if (error)
    throw std::runtime_error("cannot rename " + temporary_.string() + " to " + final_.string() + ": " +
                             error.message());
  committed_ = true;
}

void write_text_atomically(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);       // through links
  if (fs::exists(status) && !fs::is_regular_file(status)) {  // a device or a pipe (/dev/stdout): written through
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) fail("cannot write " + path.string());
    return;
  }
  // A link is followed: its file is replaced, not the link.
  const fs::path target =
      fs::is_symlink(fs::symlink_status(path, ec)) && fs::exists(status) ? fs::canonical(path, ec) : path;
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  AtomicFile file(target);
  std::ofstream out(file.temporary_path(), std::ios::binary);
  if (!out) fail("cannot create " + file.temporary_path().string());
  out << text;
  out.close();
  if (!out) fail("cannot write " + file.temporary_path().string());
  file.commit();
}

std::filesystem::path staging_folder_of(const std::filesystem::path& target, long pid) {
  return sibling(target, kStagingTag, pid);
}

StagedFolder::StagedFolder(std::filesystem::path target) {
  std::error_code ec;
  target_ = fs::absolute(target, ec).lexically_normal();
  if (target_.filename().empty()) target_ = target_.parent_path();  // "out/" names "out"
  if (fs::is_symlink(fs::symlink_status(target_, ec)) && fs::is_directory(target_, ec))
    target_ = fs::canonical(target_, ec);
  staging_ = staging_folder_of(target_, ::getpid());
  fs::create_directories(target_.parent_path());
  fs::remove_all(staging_, ec);  // this pid's own: a process that had it is gone
  if (::mkdir(staging_.c_str(), 0777) != 0) fail("cannot create the staging folder '" + staging_.string() + "'");
  struct stat earlier {};
  if (::stat(target_.c_str(), &earlier) == 0 && S_ISDIR(earlier.st_mode))
    ::chmod(staging_.c_str(), earlier.st_mode & 07777);  // the new folder keeps the earlier one's mode
}

StagedFolder::~StagedFolder() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

std::string StagedFolder::commit(const std::vector<std::string>& carried) {
  if (committed_) throw std::logic_error("StagedFolder::commit called twice");
  const std::string where = "'" + staging_.string() + "' to '" + target_.string() + "'";
  // Absent or an empty folder: rename(2) replaces it in one step.
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(target_, ec)) || is_empty_folder(target_)) {
    if (::rename(staging_.c_str(), target_.c_str()) != 0) fail("cannot rename " + where);
    committed_ = true;
    return "";
  }
  const fs::path list = staging_ / kCarriedList;
  if (!carried.empty()) {
    std::ofstream out(list);
    for (const auto& name : carried) out << name << "\n";
    out.close();
    if (!out) fail("cannot write " + list.string());
    move_entries(target_, staging_, carried);
  }
  const auto put_back = [&] {
    move_entries(staging_, target_, carried);
    fs::remove(list, ec);
  };
  // The two folders change names in one step: the name never lacks a complete folder.
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
    committed_ = true;  // staging_ now names the earlier folder
    fs::remove(target_ / kCarriedList, ec);
    return remove_earlier(staging_);
  }
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
    const int error = errno;
    put_back();
    fail("cannot exchange " + where, error);
  }
  // The file system cannot exchange: the earlier folder goes aside, the new one takes its name.
  const fs::path aside = sibling(target_, kAsideTag, ::getpid());
  if (::rename(target_.c_str(), aside.c_str()) != 0) {
    const int error = errno;
    put_back();
    fail("cannot rename '" + target_.string() + "' to '" + aside.string() + "'", error);
  }
  if (::rename(staging_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    ::rename(aside.c_str(), target_.c_str());
    put_back();
    fail("cannot rename " + where, error);
  }
  committed_ = true;
  fs::remove(target_ / kCarriedList, ec);
  return remove_earlier(aside);
}

std::vector<std::string> clean_stale_staging(const std::filesystem::path& given) {
  std::vector<std::string> notes;
  std::error_code ec;
  fs::path target = fs::absolute(given, ec).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();
  if (fs::is_symlink(fs::symlink_status(target, ec)) && fs::is_directory(target, ec))
    target = fs::canonical(target, ec);
  const fs::path parent = target.parent_path();
  const std::string name = target.filename().string();
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  std::sort(entries.begin(), entries.end());
  for (const fs::path& entry : entries) {
    const std::string entry_name = entry.filename().string();
    const long staging_pid = pid_in(entry_name, name, kStagingTag), aside_pid = pid_in(entry_name, name, kAsideTag);
    const long pid = staging_pid ? staging_pid : aside_pid;
    if (!pid || !fs::is_directory(fs::symlink_status(entry, ec))) continue;
    const std::string who = "'" + entry.string() + "' (left by process " + std::to_string(pid) + ")";
    if (pid == ::getpid()) continue;
    if (process_alive(pid)) {
      notes.push_back("leaving " + who +
                      ": that process is still running; a run into the same folder at once "
                      "would replace one output with the other");
      continue;
    }
    if (staging_pid && fs::exists(entry / kCarriedList, ec)) {
      notes.push_back(who + " holds files carried from '" + target.string() +
                      "' by a run killed while it committed "
                      "(listed in its " +
                      kCarriedList + "); move them back by hand");
      continue;
    }
    if (aside_pid && !fs::exists(fs::symlink_status(target, ec))) {
      if (::rename(entry.c_str(), target.c_str()) == 0) {
        notes.push_back("put " + who + " back as '" + target.string() + "': a run killed while it replaced it");
        continue;
      }
    }
    fs::remove_all(entry, ec);
    notes.push_back(ec ? "cannot remove " + who + ": " + ec.message()
                       : "removed " + who + ": the unfinished output of a run that was killed");
  }
  return notes;
}

}  // namespace yeex
