// Small helpers shared by the test suites: run the yeex binary, read JSON, make scratch folders.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace yeex::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `BINARY ARGS` through the shell and captures what it prints.
inline CommandResult run_program(const std::string& binary, const std::string& args) {
  const std::string command = binary + " " + args + " 2>&1";
  CommandResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The yeex of the build this test belongs to: BUILD/yeex beside BUILD/tests/SUITE/test_x, so that a
// build copied to another machine (the GPU runs carry build/slim) runs its own binary; else the
// path CMake compiled in.
inline std::string yeex_binary() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = self.parent_path().parent_path().parent_path() / "yeex";
    if (std::filesystem::is_regular_file(beside, ec)) return beside.string();
  }
  return YEEX_BINARY;
}

inline CommandResult run_yeex(const std::string& args) { return run_program(yeex_binary(), args); }

// A fresh empty folder under the system temp folder, removed on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("yeex-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Sets an environment variable (a tuning knob read when a run builds its objects) until the end
// of the scope, then puts back what was there.
class ScopedEnvironmentVariable {
 public:
  ScopedEnvironmentVariable(std::string name, const std::string& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedEnvironmentVariable() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedEnvironmentVariable(const ScopedEnvironmentVariable&) = delete;
  ScopedEnvironmentVariable& operator=(const ScopedEnvironmentVariable&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

inline nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

inline void write_file(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

inline std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string source_path(const std::string& relative) { return std::string(YEEX_SOURCE_DIR) + "/" + relative; }

// A file of tests/data: in the source tree the build was configured from, or, where that is not
// on this machine (a build carried to a GPU machine), under the working folder (the repository
// root there).
inline std::filesystem::path test_data(const std::string& name) {
  const std::filesystem::path built = source_path("tests/data/" + name);
  return std::filesystem::exists(built) ? built : std::filesystem::path("tests/data") / name;
}

}  // namespace yeex::testing
