// Checkpoint and resume as a user meets them (tests/integration/test_resume.cpp on the host
// engine, tests/gpu/test_resume_gpu.cpp on the cuda engine): a run killed by SIGKILL once its
// first checkpoint exists, and the output folders of two runs compared file by file (run.json's
// checksum, the HDF5 files bit for bit through tests/support/h5_compare.hpp, the XDMF text).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/h5_compare.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex::testing {

// Starts `yeex ARGS`, waits until `file` exists, kills the process with SIGKILL and reaps it.
// Returns false when yeex ended first (the deck was too short to be caught) or the wait ran out.
inline bool kill_once_file_exists(const std::vector<std::string>& args, const std::filesystem::path& file,
                                  std::chrono::seconds patience = std::chrono::seconds(600)) {
  const std::string binary = yeex_binary();
  std::vector<char*> argv{const_cast<char*>(binary.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1), ::dup2(null, 2);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  const auto until = std::chrono::steady_clock::now() + patience;
  bool seen = false;
  while (std::chrono::steady_clock::now() < until) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
      seen = true;
      break;
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;  // finished before a checkpoint was seen
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return seen && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

// The differences between two run folders: the field checksum of run.json, and every other file
// but run.json (HDF5 files by contents, their first differences named, the rest byte for byte).
// Empty when they hold the same result.
inline std::string output_differences(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::string differences;
  const auto checksum = [](const std::filesystem::path& dir) {
    return read_json(dir / "run.json")["checksum"]["fields"].get<std::string>();
  };
  if (checksum(a) != checksum(b)) differences += "checksum " + checksum(a) + " against " + checksum(b) + "; ";
  std::vector<std::string> names_a, names_b;
  for (const auto& e : std::filesystem::directory_iterator(a)) names_a.push_back(e.path().filename().string());
  for (const auto& e : std::filesystem::directory_iterator(b)) names_b.push_back(e.path().filename().string());
  std::sort(names_a.begin(), names_a.end());
  std::sort(names_b.begin(), names_b.end());
  if (names_a != names_b) return differences + "the folders hold other files";
  for (const std::string& name : names_a) {
    if (name == "run.json") continue;
    if (std::filesystem::path(name).extension() == ".h5") {
      for (const std::string& difference : h5_differences(a / name, b / name))
        differences += name + ": " + difference + "; ";
    } else if (read_file(a / name) != read_file(b / name)) {
      differences += name + " differs; ";
    }
  }
  return differences;
}

}  // namespace yeex::testing
