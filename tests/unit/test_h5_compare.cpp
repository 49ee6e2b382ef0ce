// tests/support/h5_compare.hpp, the comparison behind the resume tests: two files that differ in
// one thing each (a value, a bit, a shape, a type, an attribute, a member, a link) are told apart
// and the difference is named by its path; equal files compare equal. And output_differences
// (tests/support/resume_run.hpp) reports what differs in a run folder's HDF5 file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "io/hdf5_handle.hpp"
#include "io/probe_writer.hpp"
#include "tests/support/h5_compare.hpp"
#include "tests/support/resume_run.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using testing::h5_differences;
using ::testing::HasSubstr;

// What a test file holds; each test changes one thing in the second file.
struct Contents {
  double dt = 1.5e-12;
  std::int64_t steps = 1200;
  std::string units = "V/m";
  std::vector<float> field{0.0f, 1.5f, -2.0f, 3.25f, 4.0f, 5.0f};
  std::vector<hsize_t> shape{2, 3};
  bool field_as_double = false;
  bool with_hx = true;
  bool series_grows = false;  // the series stored in a growing (chunked) dataset
  bool probe_is_group = true;
  std::string link_target = "/fields/Ez";
  bool extra_attribute = false;
};

// Root attributes, /fields/Ez (2-D) and /fields/Hx, a series, /probe, and a soft link /latest.
void write_file(const fs::path& path, const Contents& c) {
  hdf5::Object file = hdf5::create_file(path);
  hdf5::write_attribute(file, "dt", c.dt);
  hdf5::write_attribute(file, "steps", c.steps);
  if (c.extra_attribute) hdf5::write_attribute(file, "resumed", std::int64_t{1});
  {
    const hdf5::Object fields = hdf5::create_group(file, "fields");
    const hdf5::Object ez = c.field_as_double ? hdf5::write_dataset<double>(fields, "Ez", c.field, c.shape)
                                              : hdf5::write_dataset<float>(fields, "Ez", c.field, c.shape);
    hdf5::write_attribute(ez, "units", c.units);
    if (c.with_hx) hdf5::write_dataset<float>(fields, "Hx", std::vector<float>{1.0f, 2.0f}, {2});
    const std::vector<double> series{0.25, 0.5, 0.75, 1.0};
    if (c.series_grows) {
      const hdf5::Object grows = hdf5::create_growing_dataset<double>(file, "series", 2);
      hdf5::append_to_dataset<double>(grows, 0, series);
    } else {
      hdf5::write_dataset<double>(file, "series", series, {series.size()});
    }
    if (c.probe_is_group)
      hdf5::create_group(file, "probe");
    else
      hdf5::write_dataset<std::int64_t>(file, "probe", std::vector<std::int64_t>{7}, {1});
  }
  H5Lcreate_soft(c.link_target.c_str(), file.id(), "latest", H5P_DEFAULT, H5P_DEFAULT);
  file.close();
}

class H5Compare : public ::testing::Test {
 protected:
  // The differences between a file of the default contents and one changed by `change`.
  std::vector<std::string> differences(const std::function<void(Contents&)>& change, std::size_t most = 8) {
    Contents changed;
    change(changed);
    write_file(dir_.path() / "a.h5", Contents{});
    write_file(dir_.path() / "b.h5", changed);
    return h5_differences(dir_.path() / "a.h5", dir_.path() / "b.h5", most);
  }
  testing::ScratchDir dir_;
};

TEST_F(H5Compare, FilesOfTheSameContentsCompareEqual) {
  EXPECT_THAT(differences([](Contents&) {}), ElementsAre());
  EXPECT_THAT(h5_differences(dir_.path() / "a.h5", dir_.path() / "a.h5"), ElementsAre());
}

// Each change of one thing in the second file, and the one difference it must make.
const std::vector<std::pair<std::function<void(Contents&)>, std::string>> kOneChange{
    {[](Contents& c) { c.field[4] = 4.5f; },
     "/fields/Ez: values differ at [1, 1]: 4 against 4.5 (1 of 6 elements differ)"},
    {[](Contents& c) { c.field[0] = -0.0f; },  // the same value, other bits
     "/fields/Ez: values differ at [0, 0]: 0 against -0 (1 of 6 elements differ)"},
    {[](Contents& c) {
       for (float& v : c.field) v += 1.0f;
     },
     "/fields/Ez: values differ at [0, 0]: 0 against 1 (6 of 6 elements differ)"},
    {[](Contents& c) {
       c.shape = {3, 2};
     },
     "/fields/Ez: shape 2 x 3 against 3 x 2"},  // the same bytes
    {[](Contents& c) { c.series_grows = true; }, "/series: shape 4 against 4 (up to unlimited)"},
    {[](Contents& c) { c.field_as_double = true; }, "/fields/Ez: datatype 4-byte float against 8-byte float"},
    {[](Contents& c) { c.units = "A/m"; }, "/fields/Ez attribute units: value \"V/m\" against \"A/m\""},
    {[](Contents& c) { c.units = "V/mm"; }, "/fields/Ez attribute units: datatype 4-byte string against 5-byte string"},
    {[](Contents& c) { c.dt = 2e-12; }, "/ attribute dt: value 1.5e-12 against 2e-12"},
    {[](Contents& c) { c.steps = -3; }, "/ attribute steps: value 1200 against -3"},
    {[](Contents& c) { c.extra_attribute = true; }, "/ attribute resumed: only in the second file"},
    {[](Contents& c) { c.with_hx = false; }, "/fields/Hx: only in the first file"},
    {[](Contents& c) { c.probe_is_group = false; }, "/probe: a group against a dataset"},
    {[](Contents& c) { c.link_target = "/fields/Hx"; }, "/latest: the links differ (their kind or target)"},
};

TEST_F(H5Compare, EachChangeIsOneDifferenceNamedByItsPath) {
  for (const auto& [change, difference] : kOneChange) EXPECT_THAT(differences(change), ElementsAre(difference));
}

TEST_F(H5Compare, SeveralDifferencesUpToTheLimit) {
  const auto change = [](Contents& c) { c.dt = 2e-12, c.units = "A/m", c.with_hx = false, c.probe_is_group = false; };
  EXPECT_EQ(differences(change).size(), 4u);
  EXPECT_THAT(differences(change, 2), ElementsAre("/ attribute dt: value 1.5e-12 against 2e-12",
                                                  "/fields/Ez attribute units: value \"V/m\" against \"A/m\""));
}

TEST_F(H5Compare, AFileThatCannotBeReadIsADifference) {
  write_file(dir_.path() / "a.h5", Contents{});
  std::ofstream(dir_.path() / "text.h5") << "not HDF5\n";
  for (const fs::path& other : {dir_.path() / "missing.h5", dir_.path() / "text.h5"}) {
    const std::vector<std::string> found = h5_differences(dir_.path() / "a.h5", other);
    ASSERT_EQ(found.size(), 1u) << other;
    EXPECT_THAT(found[0], HasSubstr("cannot open file " + other.string()));
  }
}

// Probe files from the project's writer, inside run folders as output_differences reads them.
TEST_F(H5Compare, OutputDifferencesNamesTheFileAndTheSeries) {
  ProbeFile probes;
  probes.title = "compare";
  probes.dt = 1e-12;
  probes.steps = 3;
  probes.cell_size = {1e-3, 1e-3, 1e-3};
  probes.probes.push_back({"rx", {0.002, 0.002, 0.002}, {2, 2, 2}, {Component::Ez, Component::Hx}, {}});
  probes.probes[0].series = {{0.1, 0.2, 0.3}, {-1.0, -2.0, -3.0}};
  for (const char* run : {"whole", "resumed"}) {
    fs::create_directories(dir_.path() / run);
    std::ofstream(dir_.path() / run / "run.json") << R"({"checksum": {"fields": "0x1234"}})";
    write_probe_file(dir_.path() / run / "probes.h5", probes);
  }
  EXPECT_EQ(testing::output_differences(dir_.path() / "whole", dir_.path() / "resumed"), "");
  probes.probes[0].series[1][2] = -3.0000000000000004;  // the last bit: six printed digits would not show it
  write_probe_file(dir_.path() / "resumed" / "probes.h5", probes);
  EXPECT_EQ(testing::output_differences(dir_.path() / "whole", dir_.path() / "resumed"),
            "probes.h5: /probes/rx/Hx: values differ at [2]: -3 against -3.0000000000000004 (1 of 3 elements "
            "differ); ");
}

}  // namespace
}  // namespace yeex
