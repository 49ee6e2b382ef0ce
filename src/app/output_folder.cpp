#include "src/app/output_folder.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "io/probe_writer.hpp"
#include "src/app/commands.hpp"

namespace yeex {
namespace {

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A file a yeex run was writing when it was killed: NAME.partial-PID (io/atomic_file.hpp), or the
// trial file of check_output_directory.
bool is_unfinished_file(const std::string& name) {
  const std::string partial = ".partial-", trial = ".yeex-write-test-";
  const auto at = name.rfind(partial);
  if (at != std::string::npos && at > 0 && all_digits(name.substr(at + partial.size()))) return true;
  if (name == ".yeex-carried") return true;  // a swap's list of carried files (io/atomic_file.cpp)
  return name.rfind(trial, 0) == 0 && all_digits(name.substr(trial.size()));
}

// The names a yeex run report lists (run.json's "files", itself included), or none when `file` is
// not a yeex run report. Only plain names count: a report cannot point outside its folder.
std::vector<std::string> files_of_run_report(const std::filesystem::path& file) {
  std::ifstream in(file);
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  if (!report.is_object() || !report.contains("format") || !report["format"].is_string() ||
      report["format"].get<std::string>().rfind("yeex-run-", 0) != 0)
    return {};
  std::vector<std::string> names{kRunReportName};
  if (report.contains("files") && report["files"].is_array())
    for (const auto& entry : report["files"])
      if (entry.is_string()) {
        const std::string name = entry.get<std::string>();
        if (!name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos) names.push_back(name);
      }
  return names;
}

// Whether `xdmf` is a yeex snapshot's XDMF file: its data items name `h5_name`'s datasets.
bool names_snapshot_data(const std::filesystem::path& xdmf, const std::string& h5_name) {
  std::ifstream in(xdmf);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return text.find("<Xdmf") != std::string::npos && text.find(">" + h5_name + ":/") != std::string::npos;
}

// "a, b, c and 4 more".
std::string listing(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 6;
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > kShown) text += " and " + std::to_string(names.size() - kShown) + " more";
  return text;
}

}  // namespace

OutputFolderContents output_folder_contents(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  OutputFolderContents contents;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return contents;
  std::set<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.insert(it->path().filename().string());
  if (ec) throw UsageError("output folder '" + dir.string() + "': cannot list what it holds (" + ec.message() + ")");
  // A file, or a link (a run replaces a link rather than writing through it); never a folder.
  const auto is_file = [&](const std::string& name) {
    const fs::file_status status = fs::symlink_status(dir / name, ec);
    return names.count(name) && (fs::is_regular_file(status) || fs::is_symlink(status));
  };
  std::set<std::string> yeex;
  if (is_file(kRunReportName))
    for (const std::string& name : files_of_run_report(dir / kRunReportName))
      if (is_file(name)) yeex.insert(name);
  if (is_file(std::string(kProbeFileName))) yeex.insert(std::string(kProbeFileName));
  for (const std::string& name : names) {
    if (!is_file(name)) continue;
    if (is_unfinished_file(name)) yeex.insert(name);
    const fs::path path(name);
    if (path.extension() == ".xdmf") {
      const std::string h5 = path.stem().string() + ".h5";
      if (is_file(h5) && names_snapshot_data(dir / name, h5)) yeex.insert({name, h5});
    }
  }
  for (const std::string& name : names) {
    if (yeex.count(name))
      contents.earlier_run.push_back(name);
    else
      contents.other.push_back(name + (fs::is_directory(fs::symlink_status(dir / name, ec)) ? "/" : ""));
  }
  return contents;
}

void check_output_folder_is_free(const std::filesystem::path& dir, const OutputFolderContents& contents, bool force) {
  if (contents.empty()) return;
  const std::string where = "output folder '" + dir.string() + "'";
  if (!force) {
    std::string what;
    if (!contents.earlier_run.empty()) what = "the files of an earlier run (" + listing(contents.earlier_run) + ")";
    if (!contents.other.empty())
      what += (what.empty() ? "" : " and ") + std::string("files yeex did not write (") + listing(contents.other) + ")";
    throw UsageError(where + " holds " + what +
                     "; a run writes only into a new or empty folder, so that no folder mixes two runs. Name another "
                     "with --output DIR, or pass --force to replace an earlier run's files" +
                     (contents.other.empty() ? "" : " (files yeex did not write stay)"));
  }
  for (const std::string& name : contents.earlier_run) {
    const std::string why = why_not_replaceable(dir, name);
    if (!why.empty())
      throw UsageError(where + ": '" + (dir / name).string() + "' " + why + ": --force cannot remove it");
  }
}

}  // namespace yeex
