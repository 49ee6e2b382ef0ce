// Output files: atomic creation, staged folders, the probe file layout and its chunked writer, and
// HDF5 + XDMF snapshots.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "io/atomic_file.hpp"
#include "io/hdf5_handle.hpp"
#include "io/probe_writer.hpp"
#include "io/snapshot_writer.hpp"

namespace yeex {
namespace {

namespace fs = std::filesystem;

// A fresh, empty directory per test, removed afterwards.
class OutputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "-" + info->name();
    std::ranges::replace(name, '/', '-');
    dir_ = fs::temp_directory_path() / ("yeex-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    std::ranges::sort(names);
    return names;
  }

  fs::path dir_;
};

#define EXPECT_THAT_TEXT(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "'" << (text) << "' lacks '" << (part) << "'"

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(OutputFiles, AtomicFileAppearsOnlyOnCommit) {
  const fs::path target = dir_ / "result.txt";
  {
    AtomicFile file(target);
    EXPECT_EQ(file.final_path(), target);
    EXPECT_EQ(file.temporary_path().parent_path(), dir_);
    std::ofstream(file.temporary_path()) << "done";
    EXPECT_TRUE(fs::exists(file.temporary_path()));
    EXPECT_FALSE(fs::exists(target));
    file.commit();
    EXPECT_TRUE(fs::exists(target));
    EXPECT_FALSE(fs::exists(file.temporary_path()));
  }
  EXPECT_EQ(read_text(target), "done");
  EXPECT_EQ(listing(), std::vector<std::string>{"result.txt"});
}

TEST_F(OutputFiles, AtomicFileWithoutCommitLeavesNothing) {
  {
    AtomicFile file(dir_ / "result.txt");
    std::ofstream(file.temporary_path()) << "half";
  }
  { AtomicFile never_written(dir_ / "other.txt"); }
  EXPECT_TRUE(listing().empty());
}

TEST_F(OutputFiles, WriteTextAtomically) {
  write_text_atomically(dir_ / "run.json", "{\"ok\": true}\n");
  EXPECT_EQ(read_text(dir_ / "run.json"), "{\"ok\": true}\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"run.json"});
}

ProbeFile sample_probe_file() {
  ProbeFile file;
  file.title = "dipole in a box";
  file.dt = 1.5e-12;
  file.steps = 5;
  file.cell_size = {1e-3, 2e-3, 4e-3};
  file.probes.push_back(
      {"centre", {0.0105, 0.02, 0.04}, {10, 10, 10}, {Component::Ez, Component::Hy, Component::Ex}, {}});
  file.probes.push_back({"a corner", {0.001, 0.002, 0.004}, {1, 1, 1}, {Component::Hz}, {}});
  for (ProbeRecord& probe : file.probes)
    for (std::size_t c = 0; c < probe.components.size(); ++c) {
      std::vector<double> series;
      for (Index n = 0; n < file.steps; ++n) series.push_back(0.1 * double(n) - double(c) + probe.position[0]);
      probe.series.push_back(series);
    }
  return file;
}

TEST_F(OutputFiles, ProbeFileRoundTrip) {
  const ProbeFile written = sample_probe_file();
  write_probe_file(dir_ / "probes.h5", written);
  EXPECT_EQ(listing(), std::vector<std::string>{"probes.h5"});

  const ProbeFile read = read_probe_file(dir_ / "probes.h5");
  EXPECT_EQ(read.title, written.title);
  EXPECT_EQ(read.dt, written.dt);
  EXPECT_EQ(read.steps, written.steps);
  EXPECT_EQ(read.cell_size, written.cell_size);
  ASSERT_EQ(read.probes.size(), written.probes.size());
  for (std::size_t p = 0; p < read.probes.size(); ++p) {
    EXPECT_EQ(read.probes[p].name, written.probes[p].name);
    EXPECT_EQ(read.probes[p].position, written.probes[p].position);
    EXPECT_EQ(read.probes[p].node, written.probes[p].node);
    EXPECT_EQ(read.probes[p].components, written.probes[p].components);
    EXPECT_EQ(read.probes[p].series, written.probes[p].series);
  }
}

// The attributes read_probe_file does not return, checked in the file itself.
TEST_F(OutputFiles, ProbeFileAttributes) {
  const ProbeFile written = sample_probe_file();
  write_probe_file(dir_ / "probes.h5", written);
  const hdf5::Object root = hdf5::open_file(dir_ / "probes.h5");
  EXPECT_EQ(hdf5::read_string_attribute(root, "format"), "yeex-probes-1");
  EXPECT_EQ(hdf5::read_string_attribute(root, "time_units"), "s");
  EXPECT_EQ(hdf5::read_string_attribute(root, "e_units"), "V/m");
  EXPECT_EQ(hdf5::read_string_attribute(root, "h_units"), "A/m");

  const hdf5::Object centre = hdf5::open_object(root, "probes/centre");
  EXPECT_EQ(hdf5::read_string_attribute(centre, "components"), "Ez,Hy,Ex");
  const Vec3 h = written.cell_size;
  const std::vector<double> expected_positions = {10 * h[0],   10 * h[1], 10.5 * h[2],  // Ez
                                                  10.5 * h[0], 10 * h[1], 10.5 * h[2],  // Hy
                                                  10.5 * h[0], 10 * h[1], 10 * h[2]};   // Ex
  EXPECT_EQ(hdf5::read_attribute_values<double>(centre, "component_positions"), expected_positions);

  const hdf5::Object ez = hdf5::open_object(centre, "Ez");
  EXPECT_EQ(hdf5::read_string_attribute(ez, "units"), "V/m");
  EXPECT_EQ(hdf5::read_attribute<double>(ez, "time_offset"), written.dt);
  const hdf5::Object hy = hdf5::open_object(centre, "Hy");
  EXPECT_EQ(hdf5::read_string_attribute(hy, "units"), "A/m");
  EXPECT_EQ(hdf5::read_attribute<double>(hy, "time_offset"), 0.5 * written.dt);
}

TEST_F(OutputFiles, ProbeFileRejectsSeriesOfWrongLength) {
  ProbeFile file = sample_probe_file();
  file.probes[1].series[0].pop_back();
  EXPECT_THROW(write_probe_file(dir_ / "probes.h5", file), std::invalid_argument);
  EXPECT_TRUE(listing().empty());
}

TEST_F(OutputFiles, UnwritableDirectoryThrowsNamingThePath) {
  std::ofstream(dir_ / "plain_file") << "not a directory";
  const fs::path bad = dir_ / "plain_file" / "out";
  const auto expect_failure_naming_path = [&](const auto& action) {
    try {
      action();
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find(bad.string()), std::string::npos) << error.what();
    }
  };
  expect_failure_naming_path([&] { write_probe_file(bad / "probes.h5", sample_probe_file()); });
  expect_failure_naming_path([&] { write_text_atomically(bad / "run.json", "{}"); });
  expect_failure_naming_path([&] {
    SnapshotWriter(bad, "fields", {{2, 2, 2}, {}, {1, 1, 1}, 1.0}, {Component::Ez}, 32);
  });
}

TEST_F(OutputFiles, Hdf5FailureNamesTheSystemsReason) {
  try {
    write_probe_file(dir_ / "missing" / "probes.h5", sample_probe_file());
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT_TEXT(error.what(), "probes.h5");
    EXPECT_THAT_TEXT(error.what(), "No such file or directory");
  }
}

// A run's samples arrive step by step; the file holds them whatever the chunk size.
TEST_F(OutputFiles, ProbeWriterAppendsInChunks) {
  const ProbeFile written = sample_probe_file();
  for (const Index chunk : {1, 2, 3, 5, 100}) {
    const fs::path path = dir_ / ("probes" + std::to_string(chunk) + ".h5");
    ProbeFile header = written;
    for (auto& probe : header.probes) probe.series.clear();
    ProbeWriter writer(path, header, chunk);
    EXPECT_EQ(writer.series(), 4u);
    EXPECT_EQ(writer.chunk(), std::min<Index>(chunk, written.steps));
    for (Index n = 0; n < written.steps; ++n) {
      std::vector<double> samples;
      for (const auto& probe : written.probes)
        for (const auto& series : probe.series) samples.push_back(series[n]);
      writer.append(samples);
    }
    EXPECT_THROW(writer.append(std::vector<double>(4, 0.0)), std::invalid_argument) << "more samples than steps";
    EXPECT_FALSE(fs::exists(path)) << "not before commit()";
    writer.commit();
    const ProbeFile read = read_probe_file(path);
    ASSERT_EQ(read.probes.size(), written.probes.size());
    for (std::size_t p = 0; p < read.probes.size(); ++p) EXPECT_EQ(read.probes[p].series, written.probes[p].series);
  }
}

// Memory holds series x chunk samples: the chunk shrinks for many series, never grows with the steps.
TEST_F(OutputFiles, ProbeWriterHoldsABoundedChunk) {
  ProbeFile header = sample_probe_file();
  header.probes.clear();
  for (int p = 0; p < 10000; ++p)
    header.probes.push_back({"p" + std::to_string(p), {0.001, 0.002, 0.004}, {1, 1, 1}, {Component::Ez}, {}});
  header.steps = 1000000;
  {
    ProbeWriter many(dir_ / "many.h5", header);
    EXPECT_EQ(many.series(), 10000u);
    EXPECT_LE(std::size_t(many.chunk()) * many.series() * sizeof(double), std::size_t(64) << 20);
    EXPECT_GE(many.chunk(), 64);
  }
  header.probes.resize(2);
  EXPECT_EQ(ProbeWriter(dir_ / "few.h5", header).chunk(), kProbeChunk);
  header.steps = 7;
  EXPECT_EQ(ProbeWriter(dir_ / "short.h5", header).chunk(), 7);
  EXPECT_TRUE(listing().empty()) << "nothing committed, nothing left";
}

TEST_F(OutputFiles, ProbeWriterWithMissingStepsLeavesNothing) {
  ProbeFile header = sample_probe_file();
  for (auto& probe : header.probes) probe.series.clear();
  {
    ProbeWriter writer(dir_ / "probes.h5", header, 2);
    EXPECT_THROW(writer.append(std::vector<double>(3, 0.0)), std::invalid_argument) << "one sample per series";
    for (int n = 0; n < 3; ++n) writer.append(std::vector<double>(4, 1.0));
    EXPECT_THROW(writer.commit(), std::invalid_argument);
  }
  EXPECT_TRUE(listing().empty());
}

// The staging folder, beside the target and hidden, takes the target's name only on commit().
TEST_F(OutputFiles, StagedFolderAppearsWholeOnCommit) {
  const fs::path target = dir_ / "a" / "out";
  {
    StagedFolder folder(target);
    EXPECT_EQ(folder.path(), staging_folder_of(target, ::getpid()));
    EXPECT_EQ(folder.path().filename(), ".out.yeex-staging-" + std::to_string(::getpid()));
    std::ofstream(folder.path() / "run.json") << "{}";
    EXPECT_FALSE(fs::exists(target));
    EXPECT_EQ(folder.commit(), "");
  }
  EXPECT_EQ(read_text(target / "run.json"), "{}");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "a"), {}), 1) << "no staging folder left";
  {
    StagedFolder never(dir_ / "b");
    std::ofstream(never.path() / "run.json") << "{}";
  }
  EXPECT_EQ(listing(), std::vector<std::string>{"a"});
}

TEST_F(OutputFiles, StagedFolderReplacesAnEarlierFolderAndCarriesOtherFiles) {
  const fs::path target = dir_ / "out";
  fs::create_directories(target / "plots");
  std::ofstream(target / "run.json") << "earlier";
  std::ofstream(target / "notes.txt") << "mine";
  StagedFolder folder(target);
  std::ofstream(folder.path() / "run.json") << "new";
  EXPECT_EQ(folder.commit({"notes.txt", "plots"}), "");
  EXPECT_EQ(read_text(target / "run.json"), "new");
  EXPECT_EQ(read_text(target / "notes.txt"), "mine");
  EXPECT_TRUE(fs::is_directory(target / "plots"));
  EXPECT_EQ(std::distance(fs::directory_iterator(target), {}), 3) << "no list of carried files left";
  EXPECT_EQ(listing(), std::vector<std::string>{"out"}) << "the earlier folder is gone";
}

TEST_F(OutputFiles, StagedFolderThatCannotCommitLeavesTheEarlierFolder) {
  const fs::path target = dir_ / "out";
  fs::create_directories(target);
  std::ofstream(target / "run.json") << "earlier";
  std::ofstream(target / "notes.txt") << "mine";
  {
    StagedFolder folder(target);
    std::ofstream(folder.path() / "run.json") << "new";
    try {
      folder.commit({"notes.txt", "vanished.txt"});
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& error) {
      EXPECT_THAT_TEXT(error.what(), "vanished.txt");
      EXPECT_THAT_TEXT(error.what(), "No such file or directory");
    }
  }
  EXPECT_EQ(read_text(target / "run.json"), "earlier");
  EXPECT_EQ(read_text(target / "notes.txt"), "mine");
  EXPECT_EQ(listing(), std::vector<std::string>{"out"});
}

// What killed runs left beside the target: removed, put back or kept, each said.
TEST_F(OutputFiles, CleanStaleStagingRemovesWhatDeadRunsLeft) {
  const fs::path target = dir_ / "out";
  const long dead = 999999999;  // above any pid_max
  fs::create_directories(staging_folder_of(target, dead));
  std::ofstream(staging_folder_of(target, dead) / "probes.h5") << "half";
  fs::create_directories(dir_ / ".out.yeex-old-999999998");
  std::ofstream(dir_ / ".out.yeex-old-999999998" / "run.json") << "earlier";
  fs::create_directories(dir_ / ".out.yeex-staging-999999997");
  std::ofstream(dir_ / ".out.yeex-staging-999999997" / ".yeex-carried") << "notes.txt\n";
  fs::create_directories(dir_ / ".other.yeex-staging-999999996");  // another target's: not this run's business
  const std::vector<std::string> notes = clean_stale_staging(target);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(listing(),
            (std::vector<std::string>{".other.yeex-staging-999999996", ".out.yeex-staging-999999997", "out"}));
  EXPECT_EQ(read_text(target / "run.json"), "earlier") << "the aside folder is put back";
  EXPECT_THAT_TEXT(notes[0], "put '");
  EXPECT_THAT_TEXT(notes[1], "holds files carried from");
  EXPECT_THAT_TEXT(notes[2], "removed '");
  fs::create_directories(staging_folder_of(target, ::getppid()));  // a live process's
  const std::vector<std::string> again = clean_stale_staging(target);
  EXPECT_EQ(std::ranges::count_if(
                again, [](const std::string& note) { return note.find("still running") != std::string::npos; }),
            1);
  EXPECT_TRUE(fs::exists(staging_folder_of(target, ::getppid())));
}

// Snapshots, for each precision and for a plane and a volume.
struct SnapshotCase {
  const char* label;
  int precision_bits;
  std::array<Index, 3> dims;
  std::optional<int> plane_axis;
};

class OutputFilesSnapshot : public OutputFiles, public ::testing::WithParamInterface<SnapshotCase> {};

// Values differing per step, component and node; double values that float32 must round.
double sample_value(Index step, int component, std::size_t node) {
  return 0.1 * double(node) + 10.0 * double(component) - 0.3 * double(step);
}

TEST_P(OutputFilesSnapshot, RoundTripAndXdmf) {
  const auto [label, bits, dims, plane_axis] = GetParam();
  const double dt = 1e-12;
  const SnapshotGeometry geometry{dims, {0.5, -1.0, 0.25}, {1e-3, 2e-3, 3e-3}, dt, plane_axis};
  const std::vector<Component> components = {Component::Ez, Component::Hx};
  const std::vector<Index> steps = {0, 7, 20};
  const std::size_t nodes = std::size_t(dims[0] * dims[1] * dims[2]);
  const auto values = [&](Index step, int c) {
    std::vector<double> v(nodes);
    for (std::size_t n = 0; n < nodes; ++n) v[n] = sample_value(step, c, n);
    return v;
  };

  {
    SnapshotWriter writer(dir_, "fields", geometry, components, bits);
    for (Index step : steps) {
      writer.write(step, Component::Ez, std::span<const double>(values(step, 0)));
      const std::vector<double> hx = values(step, 1);
      const std::vector<float> hx_float(hx.begin(), hx.end());  // the float overload
      writer.write(step, Component::Hx, std::span<const float>(hx_float));
    }
    EXPECT_FALSE(fs::exists(writer.h5_path()));
    EXPECT_FALSE(fs::exists(writer.xdmf_path()));
    writer.commit();
    EXPECT_EQ(writer.h5_path(), dir_ / "fields.h5");
    EXPECT_EQ(writer.xdmf_path(), dir_ / "fields.xdmf");
  }
  EXPECT_EQ(listing(), (std::vector<std::string>{"fields.h5", "fields.xdmf"}));

  const fs::path h5 = dir_ / "fields.h5";
  for (Index step : steps)
    for (int c = 0; c < 2; ++c) {
      std::vector<double> expected = values(step, c);
      for (double& v : expected)  // Hx went in as float; float32 storage rounds everything
        if (c == 1 || bits == 32) v = double(float(v));
      EXPECT_EQ(read_snapshot_dataset(h5, step, components[c]), expected) << "step " << step << " c " << c;
    }

  const hdf5::Object file = hdf5::open_file(h5);
  EXPECT_EQ(hdf5::read_string_attribute(file, "format"), "yeex-snapshot-1");
  EXPECT_EQ(hdf5::read_attribute<double>(file, "dt"), dt);
  EXPECT_EQ(hdf5::read_attribute_values<double>(file, "cell_size"), (std::vector<double>{1e-3, 2e-3, 3e-3}));
  EXPECT_EQ(hdf5::read_attribute_values<double>(file, "origin"), (std::vector<double>{0.5, -1.0, 0.25}));
  EXPECT_EQ(hdf5::read_string_attribute(file, "plane_axis"), plane_axis ? "z" : "none");
  EXPECT_EQ(hdf5::read_string_attribute(file, "time_units"), "s");
  EXPECT_EQ(hdf5::read_string_attribute(file, "e_units"), "V/m");
  EXPECT_EQ(hdf5::read_string_attribute(file, "h_units"), "A/m");
  const hdf5::Object step7 = hdf5::open_object(file, "step_00000007");
  EXPECT_EQ(hdf5::read_attribute<Index>(step7, "step"), 7);
  EXPECT_EQ(hdf5::read_attribute<double>(step7, "time"), 7.0 * dt);
  // After step n, E is known at n dt and H half a step earlier; each sits half a cell from its node.
  const hdf5::Object ez = hdf5::open_object(step7, "Ez");
  const hdf5::Object hx = hdf5::open_object(step7, "Hx");
  EXPECT_EQ(hdf5::read_string_attribute(ez, "units"), "V/m");
  EXPECT_EQ(hdf5::read_string_attribute(hx, "units"), "A/m");
  EXPECT_EQ(hdf5::read_attribute<double>(ez, "time"), 7.0 * dt);
  EXPECT_EQ(hdf5::read_attribute<double>(hx, "time"), 6.5 * dt);
  EXPECT_EQ(hdf5::read_attribute_values<double>(ez, "stagger"), (std::vector<double>{0, 0, 1.5e-3}));
  EXPECT_EQ(hdf5::read_attribute_values<double>(hx, "stagger"), (std::vector<double>{0, 1e-3, 1.5e-3}));

  const std::string xdmf = read_text(dir_ / "fields.xdmf");
  const auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (auto at = xdmf.find(needle); at != std::string::npos; at = xdmf.find(needle, at + 1)) ++n;
    return n;
  };
  const std::string dimensions =
      "Dimensions=\"" + std::to_string(dims[2]) + " " + std::to_string(dims[1]) + " " + std::to_string(dims[0]) + "\"";
  EXPECT_EQ(count("<Xdmf Version=\"3.0\">"), 1u);
  EXPECT_EQ(count("CollectionType=\"Temporal\""), 1u);
  EXPECT_EQ(count("<Time Value="), steps.size());
  EXPECT_EQ(count("TopologyType=\"3DCoRectMesh\" " + dimensions), steps.size());
  EXPECT_EQ(count("0.25 -1 0.5</DataItem>"), steps.size());        // origin, z y x
  EXPECT_EQ(count("0.003 0.002 0.001</DataItem>"), steps.size());  // spacing, z y x
  EXPECT_EQ(count("Precision=\"" + std::to_string(bits / 8) + "\" Format=\"HDF\""), steps.size() * 2);

  const std::regex reference(R"(Format="HDF">([^<:]+):(/[^<]+)</DataItem>)");
  std::vector<std::string> paths;
  for (auto it = std::sregex_iterator(xdmf.begin(), xdmf.end(), reference); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1], "fields.h5");
    paths.push_back((*it)[2]);
    EXPECT_NO_THROW(hdf5::open_object(file, paths.back())) << paths.back();
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"/step_00000000/Ez", "/step_00000000/Hx", "/step_00000007/Ez",
                                             "/step_00000007/Hx", "/step_00000020/Ez", "/step_00000020/Hx"}));
}

TEST_P(OutputFilesSnapshot, WithoutCommitLeavesNothing) {
  const auto [label, bits, dims, plane_axis] = GetParam();
  {
    SnapshotWriter writer(dir_, "fields", {dims, {}, {1, 1, 1}, 1.0, plane_axis}, {Component::Ey}, bits);
    writer.write(3, Component::Ey,
                 std::span<const double>(std::vector<double>(std::size_t(dims[0] * dims[1] * dims[2]))));
  }
  EXPECT_TRUE(listing().empty());
}

INSTANTIATE_TEST_SUITE_P(Geometries, OutputFilesSnapshot,
                         ::testing::Values(SnapshotCase{"plane_f32", 32, {5, 4, 1}, 2},
                                           SnapshotCase{"plane_f64", 64, {5, 4, 1}, 2},
                                           SnapshotCase{"volume_f32", 32, {4, 3, 2}, std::nullopt},
                                           SnapshotCase{"volume_f64", 64, {4, 3, 2}, std::nullopt}),
                         [](const auto& info) { return std::string(info.param.label); });

TEST_F(OutputFiles, SnapshotErrorsNameTheObject) {
  SnapshotWriter writer(dir_, "fields", {{2, 2, 2}, {}, {1, 1, 1}, 0.5}, {Component::Ez}, 64);
  const std::vector<double> data(8, 1.0);
  writer.write(1, Component::Ez, std::span<const double>(data));
  try {
    writer.write(1, Component::Ez, std::span<const double>(data));
    ADD_FAILURE() << "writing a dataset twice did not throw";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("/step_00000001/Ez"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("fields.h5"), std::string::npos) << error.what();
  }
  EXPECT_THROW(writer.write(0, Component::Ez, std::span<const double>(data)), std::invalid_argument);
  EXPECT_THROW(writer.write(2, Component::Hz, std::span<const double>(data)), std::invalid_argument);
  EXPECT_THROW(writer.write(2, Component::Ez, std::span<const double>(data).first(7)), std::invalid_argument);
  EXPECT_THROW(SnapshotWriter(dir_, "bad", {{2, 2, 2}, {}, {1, 1, 1}, 0.5}, {Component::Ez}, 16),
               std::invalid_argument);
  EXPECT_THROW(SnapshotWriter(dir_, "no_dt", {{2, 2, 2}, {}, {1, 1, 1}}, {Component::Ez}, 32), std::invalid_argument);
  EXPECT_THROW(SnapshotWriter(dir_, "bad_axis", {{2, 2, 2}, {}, {1, 1, 1}, 0.5, 3}, {Component::Ez}, 32),
               std::invalid_argument);
}

}  // namespace
}  // namespace yeex
