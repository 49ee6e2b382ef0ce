#include "io/atomic_file.hpp"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace yeex {

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
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);       // through links
  if (fs::exists(status) && !fs::is_regular_file(status)) {  // a device or a pipe (/dev/stdout): written through
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + path.string());
    return;
  }
  // A link is followed: its file is replaced, not the link.
  const fs::path target =
      fs::is_symlink(fs::symlink_status(path, ec)) && fs::exists(status) ? fs::canonical(path, ec) : path;
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  AtomicFile file(target);
  std::ofstream out(file.temporary_path(), std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.temporary_path().string());
  file.commit();
}

}  // namespace yeex
