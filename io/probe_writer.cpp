#include "io/probe_writer.hpp"

#include <algorithm>
#include <ranges>
#include <stdexcept>
#include <string_view>

#include "io/atomic_file.hpp"
#include "io/hdf5_handle.hpp"

namespace yeex {
namespace {

constexpr const char* kFormat = "yeex-probes-1";

std::string units_of(Component c) { return is_electric(c) ? "V/m" : "A/m"; }

// Leapfrog: sample n of an E series is taken at (n+1) dt, of an H series at (n+1/2) dt.
double time_of_first_sample(Component c, double dt) { return is_electric(c) ? dt : 0.5 * dt; }

std::string join_names(const std::vector<Component>& components) {
  std::string list;
  for (Component c : components) {
    if (!list.empty()) list += ',';
    list += component_name(c);
  }
  return list;
}

std::vector<Component> parse_names(const std::string& list, const hdf5::Object& where) {
  std::vector<Component> components;
  for (const auto part : std::views::split(list, ',')) {
    const auto c = parse_component(std::string_view(part.begin(), part.end()));
    if (!c) where.fail("parse components \"" + list + "\" of " + where.path());
    components.push_back(*c);
  }
  return components;
}

template <class T>
std::array<T, 3> read_triple(const hdf5::Object& object, const std::string& name) {
  const std::vector<T> values = hdf5::read_attribute_values<T>(object, name);
  if (values.size() != 3) object.fail("read attribute " + name + " of " + object.path() + " as 3 values");
  return {values[0], values[1], values[2]};
}

void check_name(const ProbeRecord& probe) {
  const bool bad_name = probe.name.empty() || probe.name == "." || probe.name.find('/') != std::string::npos;
  if (bad_name) throw std::invalid_argument("probe name \"" + probe.name + "\" cannot name an HDF5 group");
}

void check_record(const ProbeRecord& probe, Index steps) {
  check_name(probe);
  if (probe.series.size() != probe.components.size())
    throw std::invalid_argument("probe " + probe.name + ": one series per component expected");
  for (const auto& series : probe.series)
    if (Index(series.size()) != steps)
      throw std::invalid_argument("probe " + probe.name + ": series of " + std::to_string(series.size()) +
                                  " samples for " + std::to_string(steps) + " steps");
}

}  // namespace

Index probe_chunk(std::size_t series, Index steps) {
  constexpr Index kHeldValues = Index(8) << 20, kFewestHeld = 64;
  const Index spread = kHeldValues / Index(std::max<std::size_t>(series, 1));
  return std::max<Index>(1, std::min({kProbeChunk, std::max(kFewestHeld, spread), steps}));
}

struct ProbeWriter::State {
  State(std::filesystem::path path, const ProbeFile& header, Index chunk_)
      : steps(header.steps), file(std::move(path)), root(hdf5::create_file(file.temporary_path())) {
    for (const ProbeRecord& probe : header.probes) {
      check_name(probe);
      series += probe.components.size();
    }
    chunk = chunk_ > 0 ? std::min(chunk_, std::max<Index>(steps, 1)) : probe_chunk(series, steps);
    held.assign(series * std::size_t(chunk), 0.0);
    write_header(header);
  }

  void write_header(const ProbeFile& header) {
    hdf5::write_attribute(root, "title", header.title);
    hdf5::write_attribute(root, "dt", header.dt);
    hdf5::write_attribute(root, "steps", header.steps);
    hdf5::write_attribute(root, "cell_size", header.cell_size, {3});
    hdf5::write_attribute(root, "time_units", std::string("s"));
    hdf5::write_attribute(root, "e_units", units_of(Component::Ex));
    hdf5::write_attribute(root, "h_units", units_of(Component::Hx));
    hdf5::write_attribute(root, "format", std::string(kFormat));
    const hdf5::Object probes = hdf5::create_group(root, "probes");
    datasets.reserve(series);
    for (const ProbeRecord& probe : header.probes) {
      const hdf5::Object group = hdf5::create_group(probes, probe.name);
      hdf5::write_attribute(group, "position", probe.position, {3});
      hdf5::write_attribute(group, "node", probe.node, {3});
      hdf5::write_attribute(group, "components", join_names(probe.components));
      std::vector<double> positions;  // each component at its own staggered point of the Yee cell
      for (Component c : probe.components)
        for (int d = 0; d < 3; ++d) positions.push_back((double(probe.node[d]) + stagger(c)[d]) * header.cell_size[d]);
      hdf5::write_attribute(group, "component_positions", positions, {probe.components.size(), 3});
      for (Component c : probe.components) {
        const std::string name(component_name(c));
        const hdf5::Object dataset = hdf5::create_growing_dataset<double>(group, name, hsize_t(chunk));
        hdf5::write_attribute(dataset, "units", units_of(c));
        hdf5::write_attribute(dataset, "time_offset", time_of_first_sample(c, header.dt));
        datasets.push_back(probe.name + "/" + name);
      }
    }
  }

  // The held samples of every series, appended to its dataset. Each dataset is open only while it
  // is written: an open one holds about 16 KB in HDF5, which 10^4 probes would multiply.
  void write_held() {
    if (filled == 0) return;
    const hdf5::Object probes = hdf5::open_object(root, "probes");
    for (std::size_t s = 0; s < series; ++s)
      hdf5::append_to_dataset(hdf5::open_object(probes, datasets[s]), hsize_t(written),
                              std::span<const double>(held.data() + s * std::size_t(chunk), std::size_t(filled)));
    written += filled;
    filled = 0;
  }

  Index steps;
  std::size_t series = 0;
  Index chunk = 1;
  AtomicFile file;
  hdf5::Object root;                  // after `file`: closed before an uncommitted temporary is removed
  std::vector<std::string> datasets;  // each series' dataset, NAME/COMPONENT under /probes
  std::vector<double> held;           // [series][chunk]
  Index filled = 0;                   // samples held per series
  Index written = 0;                  // samples per series in the file
  bool finished = false;
};

ProbeWriter::ProbeWriter(std::filesystem::path path, const ProbeFile& header, Index chunk)
    : state_(std::make_unique<State>(std::move(path), header, chunk)) {}

ProbeWriter::~ProbeWriter() = default;

void ProbeWriter::append(std::span<const double> samples) {
  State& s = *state_;
  if (s.finished) throw std::logic_error("probe file: append after commit()");
  if (samples.size() != s.series)
    throw std::invalid_argument("probe file: " + std::to_string(samples.size()) + " samples for " +
                                std::to_string(s.series) + " series");
  if (s.written + s.filled >= s.steps)
    throw std::invalid_argument("probe file: more than " + std::to_string(s.steps) + " steps");
  for (std::size_t i = 0; i < s.series; ++i) s.held[i * std::size_t(s.chunk) + std::size_t(s.filled)] = samples[i];
  if (++s.filled == s.chunk) s.write_held();
}

void ProbeWriter::commit() {
  State& s = *state_;
  if (s.finished) throw std::logic_error("probe file: commit() called twice");
  s.finished = true;
  s.write_held();
  if (s.written != s.steps)
    throw std::invalid_argument("probe file: " + std::to_string(s.written) + " samples for " + std::to_string(s.steps) +
                                " steps");
  s.root.close();
  s.file.commit();
}

std::size_t ProbeWriter::series() const { return state_->series; }
Index ProbeWriter::samples() const { return state_->written + state_->filled; }

std::vector<double> ProbeWriter::series_samples(std::size_t series) const {
  const State& s = *state_;
  if (series >= s.series) throw std::out_of_range("probe file: no series " + std::to_string(series));
  std::vector<double> values;
  if (s.written > 0)
    values = hdf5::read_dataset(hdf5::open_object(hdf5::open_object(s.root, "probes"), s.datasets[series]));
  const double* held = s.held.data() + series * std::size_t(s.chunk);
  values.insert(values.end(), held, held + s.filled);
  return values;
}

Index ProbeWriter::chunk() const { return state_->chunk; }
const std::filesystem::path& ProbeWriter::path() const { return state_->file.final_path(); }

void write_probe_file(const std::filesystem::path& path, const ProbeFile& file) {
  for (const ProbeRecord& probe : file.probes) check_record(probe, file.steps);
  ProbeWriter writer(path, file);
  std::vector<double> samples;
  for (Index n = 0; n < file.steps; ++n) {
    samples.clear();
    for (const ProbeRecord& probe : file.probes)
      for (const auto& series : probe.series) samples.push_back(series[std::size_t(n)]);
    writer.append(samples);
  }
  writer.commit();
}

ProbeFile read_probe_file(const std::filesystem::path& path) {
  const hdf5::Object root = hdf5::open_file(path);
  if (hdf5::read_string_attribute(root, "format") != kFormat)
    throw std::runtime_error(path.string() + " is not a " + kFormat + " file");

  ProbeFile file;
  file.title = hdf5::read_string_attribute(root, "title");
  file.dt = hdf5::read_attribute<double>(root, "dt");
  file.steps = hdf5::read_attribute<Index>(root, "steps");
  file.cell_size = read_triple<double>(root, "cell_size");

  const hdf5::Object probes = hdf5::open_object(root, "probes");
  for (const std::string& name : hdf5::child_names(probes)) {
    const hdf5::Object group = hdf5::open_object(probes, name);
    ProbeRecord& probe = file.probes.emplace_back();
    probe.name = name;
    probe.position = read_triple<double>(group, "position");
    probe.node = read_triple<Index>(group, "node");
    probe.components = parse_names(hdf5::read_string_attribute(group, "components"), group);
    for (Component c : probe.components)
      probe.series.push_back(hdf5::read_dataset(hdf5::open_object(group, std::string(component_name(c)))));
  }
  return file;
}

}  // namespace yeex
