// Files that appear under their final name only when complete: written to "NAME.partial-PID",
// then renamed. A crash or an early error leaves no file that looks finished.
#pragma once

#include <filesystem>
#include <string>

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

}  // namespace yeex
